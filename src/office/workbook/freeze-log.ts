/**
 * The freeze log: a custom XML part in the workbook, namespace
 * FREEZE_LOG_NAMESPACE. It travels with the file, is invisible in the grid,
 * adds no sheet (so nothing shifts sheet indexes or breaks a protected
 * workbook structure), has no size limit worth the name (document settings
 * do), and any tool that opens the .xlsx package can read it. It holds cell
 * addresses, formula text and times — never a key. Custom XML parts need
 * ExcelApi 1.5.
 */
import type { FreezeRecord } from "../../refresh/workbook-adapter";

export const FREEZE_LOG_NAMESPACE = "urn:market-data-for-excel:freeze-log:1";

/** The log's records; none when the workbook has no log yet. */
export async function readFreezeLog(context: Excel.RequestContext): Promise<FreezeRecord[]> {
  const parts = context.workbook.customXmlParts.getByNamespace(FREEZE_LOG_NAMESPACE);
  parts.load("items/id");
  await context.sync();
  if (parts.items.length === 0) return [];
  const xml = parts.items[0].getXml();
  await context.sync();
  return parseFreezeLog(xml.value);
}

/** Replaces the log's records, adding the part the first time. */
export async function writeFreezeLog(context: Excel.RequestContext, records: readonly FreezeRecord[]): Promise<void> {
  const parts = context.workbook.customXmlParts.getByNamespace(FREEZE_LOG_NAMESPACE);
  parts.load("items/id");
  await context.sync();
  const xml = serializeFreezeLog(records);
  if (parts.items.length === 0) context.workbook.customXmlParts.add(xml);
  else parts.items[0].setXml(xml);
  await context.sync();
}

const RECORD_ATTRIBUTES = ["sheet", "address", "range", "frozenAt"] as const;
/** Written when present; logs written before them have none. `frozenAs` ("card" or "text") marks a frozen MD.ASSET card. */
const OPTIONAL_ATTRIBUTES = ["valuesHash", "frozenAs"] as const;
const FROZEN_AS = ["card", "text"] as const;

/**
 * Each field escaped to printable ASCII: a backslash is doubled and every
 * character outside printable ASCII becomes `\uXXXX`. XML 1.0 cannot hold most
 * control characters, U+FFFE/U+FFFF or a lone surrogate at all, turns CR LF
 * into LF in text and tabs and line breaks into spaces in attributes; a
 * formula may contain any of them (a pasted string literal). Escaped, every
 * character survives, and ordinary text (`B2`, `=MD.LATEST("eth","PRICE")`)
 * reads as is in the .xlsx package.
 */
function encodeField(value: string): string {
  return value.replace(/\\|[^\x20-\x7e]/g, (ch) =>
    ch === "\\" ? "\\\\" : `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The inverse of encodeField; null when the text is not something it wrote. */
function decodeField(text: string): string | null {
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch !== "\\") {
      out += ch;
    } else if (text[i + 1] === "\\") {
      out += "\\";
      i += 1;
    } else if (text[i + 1] === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
      i += 5;
    } else {
      return null;
    }
  }
  return out;
}

/** `<freezeLog xmlns="…"><frozen encoding="escaped" sheet address range frozenAt>formula</frozen>…</freezeLog>`, built with the DOM's XML tools. */
export function serializeFreezeLog(records: readonly FreezeRecord[]): string {
  const doc = document.implementation.createDocument(FREEZE_LOG_NAMESPACE, "freezeLog", null);
  for (const record of records) {
    const element = doc.createElementNS(FREEZE_LOG_NAMESPACE, "frozen");
    element.setAttribute("encoding", "escaped");
    for (const name of RECORD_ATTRIBUTES) element.setAttribute(name, encodeField(record[name]));
    for (const name of OPTIONAL_ATTRIBUTES) {
      const value = record[name];
      if (value !== undefined) element.setAttribute(name, encodeField(value));
    }
    element.textContent = encodeField(record.formula);
    doc.documentElement.appendChild(element);
  }
  return new XMLSerializer().serializeToString(doc);
}

/** Reads the log; throws when it is not valid XML or an entry is damaged, so a freeze never writes over a log it could not read. */
export function parseFreezeLog(xml: string): FreezeRecord[] {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  if (doc.getElementsByTagName("parsererror").length > 0)
    throw new Error("The workbook's freeze log is not valid XML.");
  // The entries are the root's children, walked sibling by sibling: indexing a live HTMLCollection
  // is linear per index in jsdom, which made a log of 20,000 entries take minutes to read in tests.
  const entries: Element[] = [];
  for (let e = doc.documentElement.firstElementChild; e; e = e.nextElementSibling)
    if (e.namespaceURI === FREEZE_LOG_NAMESPACE && e.localName === "frozen") entries.push(e);
  return entries.map((element, i) => {
    // Logs written before the encoding attribute hold the fields as plain text.
    const escaped = element.getAttribute("encoding") === "escaped";
    const field = (raw: string | null): string => {
      if (!escaped) return raw ?? "";
      const value = decodeField(raw ?? "");
      if (value === null) throw new Error(`The workbook's freeze log is damaged (entry ${i + 1}).`);
      return value;
    };
    const record: FreezeRecord = {
      sheet: field(element.getAttribute("sheet")),
      address: field(element.getAttribute("address")),
      range: field(element.getAttribute("range")),
      frozenAt: field(element.getAttribute("frozenAt")),
      formula: field(element.textContent),
    };
    const hash = element.getAttribute("valuesHash");
    if (hash !== null) record.valuesHash = field(hash);
    const frozenAs = FROZEN_AS.find((as) => as === element.getAttribute("frozenAs"));
    if (frozenAs) record.frozenAs = frozenAs;
    return record;
  });
}
