/**
 * Custom XML parts: Excel.CustomXmlPartCollection
 * (https://learn.microsoft.com/en-us/javascript/api/excel/excel.customxmlpartcollection),
 * Excel.CustomXmlPartScopedCollection (`getByNamespace`,
 * https://learn.microsoft.com/en-us/javascript/api/excel/excel.customxmlpartscopedcollection)
 * and Excel.CustomXmlPart (`getXml`, `setXml`, `delete`,
 * https://learn.microsoft.com/en-us/javascript/api/excel/excel.customxmlpart).
 * The parts live in the model with the document; a recording can make every
 * read or add fail (`customXmlFails`).
 */
import { officeError } from "./addresses";
import { type Context, proxy } from "./request-context";

/** `Workbook.customXmlParts`. */
export function makeCustomXmlParts(context: Context): Record<string, unknown> {
  const { parts, recording } = context.model;
  return {
    getByNamespace: (namespace: string) => byNamespace(context, namespace),
    add: (xml: string) => {
      // The XML is an argument of the call, part of the request (payload.ts).
      context.payload.valueBytes += xml.length;
      const namespace = /xmlns="([^"]+)"/.exec(xml)?.[1] ?? "";
      context.queue.push(() => {
        if (recording.customXmlFails) throw officeError("GeneralException", recording.customXmlFails);
        parts.push({ id: `part-${parts.length}-${Date.now()}`, namespace, xml });
      });
    },
  };
}

/** `getByNamespace(namespace)`: its `load()` finds the namespace's parts at sync. */
function byNamespace(context: Context, namespace: string): Record<string, unknown> {
  const { parts, recording } = context.model;
  const found: Record<string, unknown>[] = [];
  const coll = proxy(context, { items: () => found });
  const load = coll.load as (p?: string) => unknown;
  coll.load = () => {
    context.queue.push(() => {
      if (recording.customXmlFails) throw officeError("GeneralException", recording.customXmlFails);
      found.length = 0;
      for (const part of parts.filter((p) => p.namespace === namespace)) found.push(makePart(context, part));
    });
    load("items");
    return coll;
  };
  return coll;
}

function makePart(context: Context, part: { id: string; namespace: string; xml: string }): Record<string, unknown> {
  const { parts } = context.model;
  let xml: { value: unknown } = { value: undefined };
  return {
    id: part.id,
    getXml: () => {
      const result = {
        get value() {
          if (xml.value === undefined) throw officeError("PropertyNotLoaded", "ClientResult value read before sync");
          return xml.value;
        },
      };
      context.queue.push(() => {
        xml = { value: part.xml };
      });
      return result;
    },
    setXml: (text: string) => {
      context.payload.valueBytes += text.length;
      context.queue.push(() => void (part.xml = text));
    },
    delete: () =>
      context.queue.push(() => {
        const at = parts.indexOf(part);
        if (at >= 0) parts.splice(at, 1);
      }),
  };
}
