/**
 * The gateway's directories: the private run dir (configuration, the key
 * include for a moment), the state dir (logs, cache, temp, jwks) and who owns
 * them when nginx starts as root.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** A private directory for the configuration: in memory (/dev/shm) when available. */
export function privateRunDir(): string {
  const bases = ["/dev/shm", os.tmpdir()];
  for (const base of bases) {
    try {
      if (!existsSync(base)) continue;
      const dir = mkdtempSync(path.join(base, "md-gateway-run-"));
      chmodSync(dir, 0o700);
      return dir;
    } catch {
      // next candidate
    }
  }
  throw new Error("Could not create a private directory for the gateway's configuration.");
}

/** Whether every directory above `file` lets others through and the file lets others read. */
function readableByOthers(file: string): boolean {
  try {
    if (!(statSync(file).mode & 0o004)) return false;
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if (!(statSync(dir).mode & 0o001)) return false;
      if (dir === path.dirname(dir)) return true;
    }
  } catch {
    return false;
  }
}

function accountIds(user: string): { uid: number; gid: number; group: string } | null {
  const id = spawnSync("id", ["-u", user], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", user], { encoding: "utf8" });
  const group = spawnSync("id", ["-gn", user], { encoding: "utf8" });
  if (id.status !== 0 || gid.status !== 0 || group.status !== 0) return null;
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()), group: group.stdout.trim() };
}

/** The account nginx's workers run as (nginx started as root). */
export interface WorkerUser {
  user: string;
  group: string;
  uid: number;
  gid: number;
}

/**
 * As root, nginx's workers need a `user`: an unprivileged account (www-data,
 * else nobody) when dist/ is readable by others, else root itself (with a warning).
 */
export function chooseWorkerUser(distDir: string, log: (line: string) => void): WorkerUser | null {
  if (process.getuid?.() !== 0) return null;
  const readable = ["taskpane.html", "functions.js"].every((f) => readableByOthers(path.join(distDir, f)));
  if (readable) {
    for (const user of ["www-data", "nobody"]) {
      const ids = accountIds(user);
      if (ids) return { user, ...ids };
    }
  }
  log(
    `nginx workers run as root: ${readable ? "no www-data or nobody account" : `${distDir} is not readable by other users`}.`,
  );
  return { user: "root", group: accountIds("root")?.group ?? "root", uid: 0, gid: 0 };
}

export function chownTree(dir: string, uid: number, gid: number): void {
  chownSync(dir, uid, gid);
  spawnSync("chown", ["-R", `${uid}:${gid}`, dir]);
}

/**
 * The state dir and its logs/, cache/, temp/, jwks/ (0700; the workers'
 * account owns what they write to), with no socket left over.
 */
export function prepareStateDir(stateDir: string, worker: WorkerUser | null): { logsDir: string; cacheDir: string } {
  mkdirSync(stateDir, { recursive: true });
  chmodSync(stateDir, worker && worker.uid !== 0 ? 0o711 : 0o700);
  const logsDir = path.join(stateDir, "logs");
  const cacheDir = path.join(stateDir, "cache");
  const tempDir = path.join(stateDir, "temp");
  const jwksDir = path.join(stateDir, "jwks");
  for (const dir of [logsDir, cacheDir, tempDir, jwksDir]) {
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o700);
  }
  // A socket left by a gateway that did not stop cleanly would stop nginx from listening.
  rmSync(path.join(tempDir, "service-tier.sock"), { force: true });
  if (worker && worker.uid !== 0) {
    for (const dir of [cacheDir, tempDir, jwksDir]) chownTree(dir, worker.uid, worker.gid);
  }
  return { logsDir, cacheDir };
}
