/**
 * Copying formula text. `navigator.clipboard` needs a secure context and, in
 * an Office iframe, the host's clipboard-write permission, which some hosts do
 * not grant; the hidden-textarea `execCommand("copy")` route still works there.
 */
export async function copyText(
  text: string,
  doc: Document = document,
  nav: Navigator | undefined = globalThis.navigator,
): Promise<boolean> {
  try {
    if (nav?.clipboard?.writeText) {
      await nav.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy route
  }
  return copyWithTextarea(text, doc);
}

function copyWithTextarea(text: string, doc: Document): boolean {
  const area = doc.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  area.style.pointerEvents = "none";
  const previous = doc.activeElement as HTMLElement | null;
  doc.body.appendChild(area);
  // execCommand copies the document's selection, which is the textarea's only while it has focus.
  area.focus({ preventScroll: true });
  area.select();
  try {
    return typeof doc.execCommand === "function" && doc.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
    previous?.focus?.();
  }
}
