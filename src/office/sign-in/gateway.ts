/**
 * The team gateway (deploy/nginx/): an nginx on the add-in's own host that
 * serves the add-in and proxies the service under /api/. In firm mode it holds
 * the firm's key and adds it to every request, so the add-in sends none and
 * asks the analyst for none.
 *
 * The add-in learns the mode from the gateway itself: a base address on the
 * page's own origin is asked `<base>/_gateway` once, which a gateway answers
 * `{"keyMode":"firm"}` or `{"keyMode":"pass-through"}`. Any other answer (a
 * plain static host: 404, a web page) means "not a gateway". Addresses on
 * other hosts are never asked: the service itself is not a gateway, and a
 * request there would be one more request to a host for nothing. So one build
 * serves every deployment: the gateway's configuration decides.
 *
 * A gateway that lets in only signed-in people adds who signs them in:
 * `{"keyMode":"firm","auth":{"authority":…,"clientId":…,"scopes":[…]}}`, so
 * one build works for every firm's identity provider (src/office/sign-in/sign-in.ts).
 * The answer's shape and its parser: src/core/gateway-answer.ts, shared with
 * the gateway's configuration writer.
 */
import { normalizeBaseUrl } from "../../api";
import { parseGatewayAnswer, type GatewayInfo, type GatewayKeyMode } from "../../core/gateway-answer";

export type { GatewayInfo, GatewayKeyMode, GatewaySignIn } from "../../core/gateway-answer";
export { UNUSABLE_SIGN_IN } from "../../core/gateway-answer";

type FetchLike = (url: string, init?: { signal?: AbortSignal }) => Promise<Response>;

function pageOrigin(): string | null {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return origin && /^https?:\/\//.test(origin) ? origin : null;
}

/** The base address resolved (relative ones against the page), or null when it is not a valid one. */
function resolvedBase(baseUrl: string): string | null {
  try {
    return normalizeBaseUrl(baseUrl);
  } catch {
    return null;
  }
}

/** True when the base address is on the add-in's own host (where a gateway would be). */
export function isSameOriginBase(baseUrl: string): boolean {
  const origin = pageOrigin();
  const resolved = resolvedBase(baseUrl);
  if (!origin || !resolved) return false;
  return new URL(resolved).origin === origin;
}

/**
 * Asks a same-origin base address whether it is a gateway, once per address
 * (an answer is kept for the runtime's life; a failure to reach it is not, so
 * the next read asks again).
 */
export class GatewayProbe {
  private readonly answers = new Map<string, Promise<GatewayInfo | null>>();

  constructor(
    private readonly fetchFn: FetchLike | undefined = (globalThis as { fetch?: FetchLike }).fetch?.bind(globalThis),
    private readonly timeoutMs = 5000,
  ) {}

  async keyMode(baseUrl: string): Promise<GatewayKeyMode | null> {
    return (await this.describe(baseUrl))?.keyMode ?? null;
  }

  /** The gateway's key mode and, when it asks for sign-in, with whom; null when the address is not a gateway. */
  describe(baseUrl: string): Promise<GatewayInfo | null> {
    if (!this.fetchFn || !isSameOriginBase(baseUrl)) return Promise.resolve(null);
    const base = resolvedBase(baseUrl)!;
    let answer = this.answers.get(base);
    if (!answer) {
      answer = this.ask(base).catch(() => {
        this.answers.delete(base);
        return null;
      });
      this.answers.set(base, answer);
    }
    return answer;
  }

  private async ask(base: string): Promise<GatewayInfo | null> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      const response = await this.fetchFn!(`${base}/_gateway`, { signal: controller.signal });
      if (!response.ok) return null;
      return parseGatewayAnswer(await response.json().catch(() => null));
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * What the pane's Test connection says when the request never got an answer.
 * A browser cannot tell "the host is down" from "the host does not allow this
 * origin" (both are a bare TypeError from fetch), so a service on another host
 * gets both causes and the remedy; the gateway on the add-in's own host can
 * only be down.
 */
export function unreachableText(baseUrl: string): string {
  const resolved = resolvedBase(baseUrl) ?? baseUrl;
  if (isSameOriginBase(baseUrl)) return `the gateway at ${resolved} did not answer (is it running?).`;
  let host = resolved;
  try {
    host = new URL(resolved).host;
  } catch {
    // keep the address as written
  }
  return `${host} is unreachable or not allowed from the add-in (CORS): use the gateway (a base address on the add-in's own host, such as /api; see "Deploying for a team" in the README).`;
}
