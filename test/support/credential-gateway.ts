/**
 * A gateway stand-in in front of the sandbox that decides per credential, as
 * the team gateway's group rule (deploy/nginx/sign-in.js: 403 for a verified
 * account outside the group) and a service that revokes a key (401) do: a
 * request with `Authorization: Bearer <token>` is refused with 403 when the
 * token's `sub` is in `refused`, else forwarded with the sandbox's demo key
 * (the firm's key) and without the token; a request with an `APIKey` is
 * refused with 401 when the key is in `refused`, else forwarded as it came
 * (the sandbox itself refuses every key but its own with 401). Real HTTP both
 * ways. Tokens here are JWT-shaped (header.payload.signature) and unsigned:
 * this stand-in reads who they name, it does not verify them (the gateway
 * tests do that against real nginx). `down` drops every connection, as a
 * network that cannot reach the gateway does; `silent` takes every request
 * and never answers it (a gateway or service that hangs), until `release()`.
 */
import http from "node:http";
import { DEMO_API_KEY } from "../../sandbox/server";
import { listenLocal, type LocalServer } from "./local-server";
import { useWorld } from "./use-world";

export interface CredentialGateway extends LocalServer {
  /** Token subjects (`sub`) and API keys refused from now on. */
  readonly refused: Set<string>;
  /** Every request answered, with who asked (a token's `sub`, or the key) and the status sent. */
  readonly requests: { path: string; who: string; status: number }[];
  /** While set, every connection is dropped unanswered (the network down; not counted in `requests`). */
  down: boolean;
  /** While set, every request is taken and never answered (not counted in `requests`) until `release()`. */
  silent: boolean;
  /** Drops the connections `silent` holds. */
  release(): void;
  /** How many requests `silent` holds now. */
  heldCount(): number;
}

/** A JWT-shaped token naming `claims`, unsigned (a long random-looking third segment stands in for the signature). */
export function tokenFor(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const signature = Buffer.from(`signature of ${JSON.stringify(claims)}`.repeat(3)).toString("base64url");
  return `${part({ alg: "RS256", typ: "JWT", kid: "k1" })}.${part(claims)}.${signature}`;
}

function subjectOf(token: string): string {
  try {
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as { sub?: unknown };
    return typeof claims.sub === "string" ? claims.sub : "";
  } catch {
    return "";
  }
}

export async function startCredentialGateway(upstream: () => string): Promise<CredentialGateway> {
  const refused = new Set<string>();
  const requests: CredentialGateway["requests"] = [];
  const state = { down: false, silent: false };
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (state.down) {
      req.socket.destroy();
      return;
    }
    if (state.silent) {
      held.add(res);
      res.on("close", () => held.delete(res));
      return;
    }
    void (async () => {
      const url = new URL(req.url ?? "/", "http://gateway.invalid");
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const who = bearer !== undefined ? subjectOf(bearer) : (url.searchParams.get("APIKey") ?? "");
      const send = (status: number, body: string) => {
        requests.push({ path: url.pathname, who, status });
        res.writeHead(status, { "content-type": "application/json" }).end(body);
      };
      if (refused.has(who)) {
        send(bearer !== undefined ? 403 : 401, JSON.stringify({ error: { message: "not allowed" } }));
        return;
      }
      if (bearer !== undefined) url.searchParams.set("APIKey", DEMO_API_KEY);
      const answer = await fetch(`${upstream()}${url.pathname}${url.search}`);
      send(answer.status, await answer.text());
    })().catch(() => res.destroy());
  });
  const local = await listenLocal(server);
  return {
    ...local,
    refused,
    requests,
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    get silent() {
      return state.silent;
    },
    set silent(value: boolean) {
      state.silent = value;
    },
    release() {
      for (const res of held) res.destroy();
      held.clear();
    },
    heldCount: () => held.size,
  };
}

/** startCredentialGateway for the suite or describe block this is called in, in front of `upstream` (read once started). */
export function useCredentialGateway(upstream: { url: string }): CredentialGateway {
  return useWorld("the credential gateway (useCredentialGateway)", () => startCredentialGateway(() => upstream.url));
}
