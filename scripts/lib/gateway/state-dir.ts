/**
 * The gateway's directories: the private run dir (configuration, the key
 * include for a moment), the state dir (logs, cache, temp, jwks) and who owns
 * them when nginx starts as root.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import os from "node:os";
import path from "node:path";

/** A private directory for the configuration: in memory (/dev/shm) when available. */
export function privateRunDir(): string {
  const bases = ["/dev/shm", os.tmpdir()];
  for (const base of bases) {
    try {
      if (!existsSync(base)) continue;
      const dir = mkdtempSync(path.join(base, "md-gateway-run-"));
      chmodSync(dir, 0o700);
      return dir;
    } catch {
      // next candidate
    }
  }
  throw new Error("Could not create a private directory for the gateway's configuration.");
}

/** Whether every directory above `file` lets others through and the file lets others read. */
function readableByOthers(file: string): boolean {
  try {
    if (!(statSync(file).mode & 0o004)) return false;
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if (!(statSync(dir).mode & 0o001)) return false;
      if (dir === path.dirname(dir)) return true;
    }
  } catch {
    return false;
  }
}

function accountIds(user: string): { uid: number; gid: number; group: string } | null {
  const id = spawnSync("id", ["-u", user], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", user], { encoding: "utf8" });
  const group = spawnSync("id", ["-gn", user], { encoding: "utf8" });
  if (id.status !== 0 || gid.status !== 0 || group.status !== 0) return null;
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()), group: group.stdout.trim() };
}

/** The account nginx's workers run as (nginx started as root). */
export interface WorkerUser {
  user: string;
  group: string;
  uid: number;
  gid: number;
}

/**
 * As root, nginx's workers need a `user`: an unprivileged account (www-data,
 * else nobody) when dist/ is readable by others, else root itself (with a warning).
 */
export function chooseWorkerUser(distDir: string, log: (line: string) => void): WorkerUser | null {
  if (process.getuid?.() !== 0) return null;
  const readable = ["taskpane.html", "functions.js"].every((f) => readableByOthers(path.join(distDir, f)));
  if (readable) {
    for (const user of ["www-data", "nobody"]) {
      const ids = accountIds(user);
      if (ids) return { user, ...ids };
    }
  }
  log(
    `nginx workers run as root: ${readable ? "no www-data or nobody account" : `${distDir} is not readable by other users`}.`,
  );
  return { user: "root", group: accountIds("root")?.group ?? "root", uid: 0, gid: 0 };
}

/** The file the runner writes into a state directory it created; one without it is not reused unless empty. */
const MARKER = ".md-gateway-state";
/** The service tier's socket, in temp/ (gateway.conf.template's MD_INNER_SOCKET). */
const SOCKET = path.join("temp", "service-tier.sock");

/** Why a path of the state directory is refused (prepareStateDir says which state directory). */
class Refused extends Error {}

function refuse(why: string): never {
  throw new Refused(why);
}

function refusal(stateDir: string, why: string): Error {
  return new Error(
    `The gateway will not use the state directory ${stateDir}: ${why}. Another local user could read or redirect ` +
      "what nginx (run as root) writes there, or take the firm key's requests at the service tier's socket. Give " +
      '--state-dir a directory only this user can change (deploy/nginx/README.md, "The state directory").',
  );
}

const octal = (mode: number) => `0${(mode & 0o7777).toString(8)}`;

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** A directory only root or `me` owns and only its owner can change (a sticky one, as /tmp, when others may write). */
function checkOwnedDir(dir: string, stat: Stats, me: number, sticky: "sticky allowed" | "not even sticky"): void {
  if (stat.uid !== 0 && stat.uid !== me)
    refuse(`${dir} belongs to uid ${stat.uid}, not to this user (uid ${me}) or root`);
  const othersWrite = (stat.mode & 0o022) !== 0;
  if (othersWrite && !(sticky === "sticky allowed" && stat.mode & 0o1000))
    refuse(`${dir} can be written by other users (mode ${octal(stat.mode)})`);
}

/**
 * Every directory from / down to `dir` that exists: not another user's and
 * not writable by others (a sticky one such as /tmp excepted, where no one
 * can move another's entry); a symbolic link is followed only where no one
 * else can change it, and where it leads is checked the same way. What does
 * not exist yet is created by this runner.
 */
function checkAncestors(dir: string, me: number, depth = 0): void {
  if (depth > 8) refuse("its path has too many symbolic links");
  let current = path.parse(dir).root;
  checkOwnedDir(current, lstatSync(current), me, "sticky allowed");
  for (const part of path.relative(current, dir).split(path.sep).filter(Boolean)) {
    const next = path.join(current, part);
    const stat = lstatOrNull(next);
    if (!stat) return;
    if (stat.isSymbolicLink()) {
      current = realpathSync(next);
      checkAncestors(current, me, depth + 1);
      continue;
    }
    if (!stat.isDirectory()) refuse(`${next} is not a directory`);
    checkOwnedDir(next, stat, me, "sticky allowed");
    current = next;
  }
}

/**
 * The state directory itself: created here (with the marker file), or one
 * created here before — a directory (not a symbolic link), this user's, that
 * no one else can write, holding the marker (or empty, e.g. made by systemd's
 * StateDirectory=).
 */
function ownStateDir(stateDir: string, me: number): void {
  checkAncestors(path.dirname(stateDir), me);
  const stat = lstatOrNull(stateDir);
  if (!stat) {
    // Parents it makes are this user's and open to pass through (the workers reach their directories below).
    mkdirSync(path.dirname(stateDir), { recursive: true, mode: 0o755 });
    mkdirSync(stateDir, { mode: 0o700 });
  } else {
    if (stat.isSymbolicLink()) refuse(`${stateDir} is a symbolic link`);
    if (!stat.isDirectory()) refuse(`${stateDir} is not a directory`);
    if (stat.uid !== me) refuse(`${stateDir} belongs to uid ${stat.uid}, not to this user (uid ${me})`);
    checkOwnedDir(stateDir, stat, me, "not even sticky");
    const marker = lstatOrNull(path.join(stateDir, MARKER));
    if (marker && !(marker.isFile() && marker.uid === me))
      refuse(`${path.join(stateDir, MARKER)} is not a file of this user's`);
    if (!marker && readdirSync(stateDir).length > 0)
      refuse(`${stateDir} was not created by the gateway (no ${MARKER} in it) and is not empty`);
  }
  writeFileSync(path.join(stateDir, MARKER), "The market-data gateway's state directory (logs, cache, temp, jwks).\n", {
    mode: 0o600,
  });
}

/** A directory inside the state dir: created here, or a real directory of this user's (or the workers'). */
function ownSubdir(dir: string, owners: number[]): void {
  const stat = lstatOrNull(dir);
  if (!stat) {
    mkdirSync(dir, { mode: 0o700 });
    return;
  }
  if (stat.isSymbolicLink()) refuse(`${dir} is a symbolic link`);
  if (!stat.isDirectory()) refuse(`${dir} is not a directory`);
  if (!owners.includes(stat.uid)) refuse(`${dir} belongs to uid ${stat.uid}`);
  chmodSync(dir, 0o700);
}

/** A log nginx's master (root) opens for appending: absent, or a plain file of this user's with one name. */
function checkLog(file: string, me: number): void {
  const stat = lstatOrNull(file);
  if (!stat) return;
  if (stat.isSymbolicLink()) refuse(`${file} is a symbolic link`);
  if (!stat.isFile()) refuse(`${file} is not a regular file`);
  if (stat.uid !== me) refuse(`${file} belongs to uid ${stat.uid}`);
  if (stat.nlink !== 1) refuse(`${file} has ${stat.nlink} names (a hard link)`);
  if (stat.mode & 0o022) refuse(`${file} can be written by other users (mode ${octal(stat.mode)})`);
}

/** Gives `dir` and everything under it to uid:gid, never following a symbolic link. */
export function chownTree(dir: string, uid: number, gid: number): void {
  lchownSync(dir, uid, gid);
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (lstatSync(full).isDirectory()) chownTree(full, uid, gid);
    else lchownSync(full, uid, gid);
  }
}

/**
 * The state dir and its logs/, cache/, temp/, jwks/ (0700; the workers'
 * account owns what they write to), with no socket left over. The state dir
 * is one this runner created (or an empty one of this user's), in a path no
 * other user can change; anything else is refused with the path and why
 * (checkAncestors, ownStateDir, ownSubdir, checkLog) before anything is
 * written.
 */
export function prepareStateDir(stateDir: string, worker: WorkerUser | null): { logsDir: string; cacheDir: string } {
  const me = process.getuid?.() ?? -1;
  const socket = path.join(stateDir, SOCKET);
  // sun_path holds 108 bytes with its terminating NUL.
  if (Buffer.byteLength(socket) > 107)
    throw new Error(
      `The state directory's path is too long for the service tier's socket (${socket}): give a shorter --state-dir.`,
    );
  const logsDir = path.join(stateDir, "logs");
  const cacheDir = path.join(stateDir, "cache");
  const tempDir = path.join(stateDir, "temp");
  const jwksDir = path.join(stateDir, "jwks");
  if (me >= 0) {
    try {
      ownStateDir(stateDir, me);
      const owners = [me, ...(worker ? [worker.uid] : [])];
      ownSubdir(logsDir, [me]);
      for (const dir of [cacheDir, tempDir, jwksDir]) ownSubdir(dir, owners);
      for (const log of ["access.log", "error.log"]) checkLog(path.join(logsDir, log), me);
    } catch (error) {
      throw error instanceof Refused ? refusal(stateDir, error.message) : error;
    }
  } else {
    for (const dir of [logsDir, cacheDir, tempDir, jwksDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  chmodSync(stateDir, worker && worker.uid !== 0 ? 0o711 : 0o700);
  // A socket left by a gateway that did not stop cleanly would stop nginx from listening.
  rmSync(socket, { force: true });
  if (worker && worker.uid !== 0) {
    for (const dir of [cacheDir, tempDir, jwksDir]) chownTree(dir, worker.uid, worker.gid);
  }
  return { logsDir, cacheDir };
}
