/** Finding nginx and its JavaScript module, and installing Debian's when they are missing. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export function findNginx(): string | null {
  if (process.env.MD_NGINX && existsSync(process.env.MD_NGINX)) return process.env.MD_NGINX;
  const found = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  if (found.status === 0 && found.stdout.trim()) return found.stdout.trim();
  for (const candidate of [
    "/usr/sbin/nginx",
    "/usr/local/sbin/nginx",
    "/usr/local/nginx/sbin/nginx",
    "/opt/homebrew/bin/nginx",
  ]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export const INSTALL_HINT =
  "Install nginx and its JavaScript module: `sudo apt-get install nginx libnginx-mod-http-js` (Debian, Ubuntu), `sudo dnf install nginx nginx-mod-njs` (Fedora, RHEL), `brew install nginx` (macOS, njs built from source); or set MD_NGINX and MD_NGINX_JS_MODULE to their paths.";

/** nginx's JavaScript module (njs) as a loadable module, or null. */
export function findNjsModule(): string | null {
  if (process.env.MD_NGINX_JS_MODULE && existsSync(process.env.MD_NGINX_JS_MODULE))
    return process.env.MD_NGINX_JS_MODULE;
  for (const candidate of [
    "/usr/lib/nginx/modules/ngx_http_js_module.so",
    "/usr/lib64/nginx/modules/ngx_http_js_module.so",
    "/usr/local/nginx/modules/ngx_http_js_module.so",
    "/etc/nginx/modules/ngx_http_js_module.so",
    "/opt/homebrew/lib/nginx/modules/ngx_http_js_module.so",
  ]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * nginx's path, installing Debian's package first when it is missing and this
 * is root on a machine with apt-get (as scripts/test.ts does for Chromium).
 * Returns the reason when there is none.
 */
export function ensureNginx(
  options: { install?: boolean; log?: (line: string) => void } = {},
): { path: string; jsModule: string } | { missing: string } {
  const log = options.log ?? console.log;
  const existing = findNginx();
  const jsModule = findNjsModule();
  if (existing && jsModule) return { path: existing, jsModule };
  const what = existing ? "nginx's JavaScript module (njs)" : "nginx";
  const hasAptGet = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (options.install === false || process.env.MD_NO_NGINX_INSTALL === "1")
    return { missing: `${what} is not installed (installing it is turned off). ${INSTALL_HINT}` };
  if (!hasAptGet) return { missing: `${what} is not installed and this machine has no apt-get. ${INSTALL_HINT}` };
  if (process.getuid?.() !== 0)
    return { missing: `${what} is not installed, and installing it needs root. ${INSTALL_HINT}` };
  log("▶ installing Debian nginx and its JavaScript module (once): apt-get install -y -qq nginx libnginx-mod-http-js");
  const result = spawnSync(
    "sh",
    [
      "-c",
      "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx libnginx-mod-http-js >/dev/null",
    ],
    { stdio: "inherit" },
  );
  const installed = findNginx();
  const installedModule = findNjsModule();
  if (result.status === 0 && installed && installedModule) return { path: installed, jsModule: installedModule };
  return { missing: `apt-get could not install ${what} (exit ${result.status}). ${INSTALL_HINT}` };
}
