/**
 * An identity provider written for the attack tests: on loopback, it
 * publishes a key set (RSA keys, JWKs) at /jwks and signs tokens with them,
 * and a test can make its key set endpoint misbehave as a provider under
 * maintenance or load does (a non-JSON 200 page, an HTTP error, an answer
 * held for a while) or drop a key from the set (a revoked signing key). It
 * counts every request for the key set: what the gateway's bounds are about.
 */
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { TEST_AUDIENCE, TEST_TENANT } from "./identity";

/** How the key set endpoint answers. */
export type KeySetBehaviour =
  | { kind: "keys" }
  /** A 200 that is not JSON (a maintenance page). */
  | { kind: "page" }
  /** An HTTP error, after holding the request `delayMs` (default at once). */
  | { kind: "error"; status: number; delayMs?: number };

interface Key {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface AttackProvider {
  issuer: string;
  jwksUri: string;
  /** The kids the provider publishes now. */
  kids(): string[];
  /** Requests for the key set so far. */
  keySetRequests(): number;
  /** Resolves once the key set has been asked for more than `count` times. */
  keySetRequested(count: number, timeoutMs?: number): Promise<void>;
  behave(behaviour: KeySetBehaviour): void;
  /** Takes a key out of the published set (the provider revoked it). */
  removeKey(kid: string): void;
  /**
   * A token signed with the provider's key `kid` (default the first published;
   * a removed one too), or with a key never published (`"stranger"`, under a
   * fresh unknown kid each time). Claims
   * over an access token's defaults (`scp`, an hour left); `undefined` drops one.
   */
  token(claims?: Record<string, unknown>, options?: { kid?: string; header?: Record<string, unknown> }): string;
  close(): Promise<void>;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function rsaKey(): Key {
  return { kid: `attack-${randomUUID().slice(0, 8)}`, ...generateKeyPairSync("rsa", { modulusLength: 2048 }) };
}

export async function startAttackProvider(): Promise<AttackProvider> {
  const signers = [rsaKey(), rsaKey()];
  // Removed keys still sign (an attacker's copy, or tokens issued before the removal).
  let keys = [...signers];
  const stranger = rsaKey();
  let behaviour: KeySetBehaviour = { kind: "keys" };
  let requests = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();
  const held = new Set<NodeJS.Timeout>();

  const answer = (res: ServerResponse) => {
    if (behaviour.kind === "page") {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("<html><body>Down for maintenance</body></html>");
    } else if (behaviour.kind === "error") {
      res.writeHead(behaviour.status, { "Content-Type": "text/plain" });
      res.end("unavailable");
    } else {
      const published = keys.map((k) => ({ ...k.publicKey.export({ format: "jwk" }), kid: k.kid, use: "sig" }));
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ keys: published }));
    }
  };
  const server = createServer((req, res) => {
    if (req.url !== "/jwks") {
      res.writeHead(404).end();
      return;
    }
    requests++;
    for (const w of waiting.filter((one) => requests > one.count)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
    const delay = behaviour.kind === "error" ? (behaviour.delayMs ?? 0) : 0;
    if (delay === 0) return answer(res);
    const timer = setTimeout(() => {
      held.delete(timer);
      answer(res);
    }, delay);
    held.add(timer);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    kids: () => keys.map((k) => k.kid),
    keySetRequests: () => requests,
    keySetRequested(count, timeoutMs = 20_000) {
      if (requests > count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          reject(new Error(`the key set was not asked for more than ${count} times within ${timeoutMs} ms`));
        }, timeoutMs);
        const entry = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        waiting.push(entry);
      });
    },
    behave(next) {
      behaviour = next;
    },
    removeKey(kid) {
      keys = keys.filter((k) => k.kid !== kid);
    },
    token(claims = {}, options = {}) {
      const key =
        options.kid === "stranger"
          ? { ...stranger, kid: `stranger-${randomUUID()}` }
          : (signers.find((k) => k.kid === (options.kid ?? keys[0].kid)) ?? null);
      if (!key) throw new Error(`the provider has no key ${options.kid}`);
      const now = Math.floor(Date.now() / 1000);
      const body = Object.fromEntries(
        Object.entries({
          iss: issuer,
          aud: TEST_AUDIENCE,
          sub: "attack-user",
          oid: `attack-${randomUUID()}`,
          tid: TEST_TENANT,
          scp: "access_as_user",
          iat: now,
          nbf: now,
          exp: now + 3600,
          ...claims,
        }).filter(([, v]) => v !== undefined),
      );
      const signed = `${b64({ alg: "RS256", typ: "at+jwt", kid: key.kid, ...options.header })}.${b64(body)}`;
      return `${signed}.${sign("sha256", Buffer.from(signed), key.privateKey).toString("base64url")}`;
    },
    async close() {
      for (const timer of held) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
