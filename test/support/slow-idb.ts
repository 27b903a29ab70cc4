/** IndexedDB answering late on a busy computer (harness/slow-idb.ts, shared with bench/reopen.ts --busy). */
export { slowReads, type SlowReads } from "../../harness/slow-idb";
