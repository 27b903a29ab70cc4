/**
 * Light or dark, following Office where it tells us (the host's theme, which
 * the user chose in Office, read by src/office/host.ts), else the system's
 * preference (a plain browser).
 */
import { useEffect, useState } from "react";
import type { OfficeTheme } from "../../office/host";

export type ThemeMode = "light" | "dark";

/** Relative luminance of #RRGGBB (WCAG), or null for anything else. */
export function luminance(hex: string): number | null {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return null;
  const channel = (offset: number) => {
    const c = parseInt(match[1].slice(offset, offset + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/**
 * `isDarkTheme` is newer than `officeTheme` itself; older hosts only give the
 * colours, so a dark body background decides.
 */
export function themeFromOffice(theme: OfficeTheme | null | undefined): ThemeMode | null {
  if (!theme) return null;
  if (typeof theme.isDarkTheme === "boolean") return theme.isDarkTheme ? "dark" : "light";
  const l = theme.bodyBackgroundColor ? luminance(theme.bodyBackgroundColor) : null;
  return l === null ? null : l < 0.4 ? "dark" : "light";
}

const DARK_QUERY = "(prefers-color-scheme: dark)";

function systemTheme(): ThemeMode {
  return typeof matchMedia === "function" && matchMedia(DARK_QUERY).matches ? "dark" : "light";
}

/** The Office theme when Office gives one, else the system's, following system changes live. */
export function useThemeMode(officeTheme: OfficeTheme | null): ThemeMode {
  const fromOffice = themeFromOffice(officeTheme);
  const [system, setSystem] = useState<ThemeMode>(systemTheme);
  useEffect(() => {
    if (fromOffice || typeof matchMedia !== "function") return;
    const query = matchMedia(DARK_QUERY);
    const onChange = () => setSystem(query.matches ? "dark" : "light");
    query.addEventListener?.("change", onChange);
    return () => query.removeEventListener?.("change", onChange);
  }, [fromOffice]);
  return fromOffice ?? system;
}
