/** Who can reach the gateway: loopback or not, the host names it answers for, firm mode off this machine. */
import { isLoopback } from "./loopback";
import type { KeyMode } from "./options";

/**
 * Firm mode spends the firm's key for whoever reaches the gateway. On this
 * machine only (loopback) that is one person; anywhere else it must know who
 * asks (identity settings) — unless whoever runs it says the network itself
 * is trusted (every machine that can reach the address may use the key).
 */
export function checkExposure(options: {
  host: string;
  keyMode: KeyMode;
  /** The identity settings, if any were given (only whether they were is asked here). */
  identity: object | null | undefined;
  trustedNetwork?: boolean;
}): void {
  if (options.keyMode !== "firm" || options.identity || options.trustedNetwork || isLoopback(options.host)) return;
  throw new Error(
    `Firm mode on ${options.host} (reachable from other machines) needs sign-in: give the identity settings ` +
      "(--issuer, --audience, --client-id; see deploy/nginx/README.md), or --trusted-network if every machine " +
      "that can reach this address may spend the firm's key.",
  );
}

/** The host names the gateway answers for: this machine's names, the listen address, and the given ones. */
export function serverNamesFor(host: string, names: readonly string[] = []): string[] {
  const all = ["localhost", "127.0.0.1", "[::1]"];
  const listen = host.includes(":") ? `[${host.replace(/^\[|\]$/g, "")}]` : host;
  if (host !== "0.0.0.0" && host !== "::" && !all.includes(listen)) all.push(listen);
  for (const name of names) {
    if (!/^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/.test(name))
      throw new Error(`"${name}" is not a host name (give names without scheme or port, e.g. md.example.com).`);
    if (!all.includes(name.toLowerCase())) all.push(name.toLowerCase());
  }
  return all;
}
