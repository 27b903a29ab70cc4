/**
 * Links from the service (a metric's `source_link`) become anchors only when
 * they are http(s): a `javascript:` or `data:` URL from a compromised or buggy
 * catalog must never be one click away.
 */
export function httpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}
