/** The service's address as the configuration needs it, and the TLS lines for an https:// one. */
import { existsSync } from "node:fs";

export interface Upstream {
  scheme: "http" | "https";
  /** host:port for the upstream block. */
  server: string;
  /** The Host header. */
  host: string;
  hostname: string;
  /** Base path without a trailing slash ("" or "/v1"). */
  path: string;
}

export function parseUpstream(raw: string): Upstream {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`The upstream "${raw}" is not an address (expected http(s)://host[:port][/path]).`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`The upstream must be http:// or https://, not ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password) {
    throw new Error(
      "The upstream address must not carry a query, a fragment or credentials (the key goes in --key-file).",
    );
  }
  const scheme = url.protocol === "https:" ? "https" : "http";
  const port = url.port || (scheme === "https" ? "443" : "80");
  const basePath = url.pathname.replace(/\/+$/, "");
  if (!/^(?:\/[A-Za-z0-9._~-]+)*$/.test(basePath))
    throw new Error(`The upstream's path "${url.pathname}" holds characters the gateway does not pass on.`);
  return {
    scheme,
    server: `${url.hostname}:${port}`,
    host: url.host,
    hostname: url.hostname.replace(/^\[|\]$/g, ""),
    path: basePath,
  };
}

export function upstreamTlsLines(hostname: string): string {
  const lines = ["proxy_ssl_server_name on;", `proxy_ssl_name ${hostname};`, "proxy_ssl_protocols TLSv1.2 TLSv1.3;"];
  const bundle = "/etc/ssl/certs/ca-certificates.crt";
  if (existsSync(bundle))
    lines.push("proxy_ssl_verify on;", "proxy_ssl_verify_depth 4;", `proxy_ssl_trusted_certificate ${bundle};`);
  else lines.push(`# ${bundle} is missing: the service's certificate is not verified (install ca-certificates).`);
  return lines.join("\n");
}
