/**
 * `npm start`: the local sandbox market-data API plus the webpack dev server
 * (https://localhost:3000, self-signed), which proxies /sandbox-api to the
 * sandbox so the add-in works out of the box with the demo key. Needs no Excel;
 * prints how to open the pane in a browser and how to sideload into Excel.
 *
 * Both ports are checked first: when one is taken (typically by an `npm start`
 * already running) it says which, by what, and what to do — no stack trace.
 * MD_DEV_SERVER_PORT and MD_SANDBOX_PORT move them.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { DEMO_API_KEY, startSandbox } from "../sandbox/server";
import { isPortFree, NPM_START, type PortNeed, portOwner, portsTakenMessage } from "./lib/ports";

const root = path.resolve(__dirname, "..");
const port = Number(process.env.MD_SANDBOX_PORT || 3001);
const devPort = Number(process.env.MD_DEV_SERVER_PORT || 3000);
const devOrigin = `https://localhost:${devPort}`;

/** Exits with the reason when a port is taken. */
async function checkPorts(): Promise<void> {
  const needs: PortNeed[] = [
    {
      port: devPort,
      host: "localhost",
      role: `the dev server (${devOrigin})`,
      moveTo: (to) => `MD_DEV_SERVER_PORT=${to}`,
    },
    {
      port,
      host: "127.0.0.1",
      role: `the sandbox API (http://127.0.0.1:${port})`,
      moveTo: (to) => `MD_SANDBOX_PORT=${to}`,
    },
  ];
  const taken = [];
  for (const need of needs)
    if (!(await isPortFree(need.port, need.host))) taken.push({ ...need, owner: portOwner(need.port) });
  if (taken.length === 0) return;
  console.error(portsTakenMessage(taken, NPM_START));
  process.exit(1);
}

/**
 * How to sideload. The repository's manifest.xml names https://localhost:3000;
 * on another port (MD_DEV_SERVER_PORT) only the manifest the dev server serves
 * names the right one, and the banner says so first.
 */
function sideloading(): string {
  if (devPort === 3000)
    return `  • In Excel on the web: Insert → Add-ins → Upload My Add-in → manifest.xml.
  • In desktop Excel (Windows/Mac): npx office-addin-debugging start manifest.xml
    (installs and trusts a dev certificate, sideloads the manifest).`;
  return `  • PORT ${devPort}, NOT 3000: the repository's manifest.xml names https://localhost:3000 and
    would open nothing. Sideload the manifest the dev server serves, which names port ${devPort}:
    save ${devOrigin}/manifest.xml as a file (e.g. manifest-${devPort}.xml), then
  • In Excel on the web: Insert → Add-ins → Upload My Add-in → that file.
  • In desktop Excel (Windows/Mac): npx office-addin-debugging start manifest-${devPort}.xml`;
}

async function main(): Promise<void> {
  await checkPorts();
  // Realistic mode: the add-in meets the real service's quirks (sentences, unsettled days, empty answers) from day one.
  const sandbox = await startSandbox({ port, quiet: false, insightFirstCallDelayMs: 3000, realistic: true });
  console.log(`Sandbox market-data API (synthetic data, realistic mode) on ${sandbox.url}, demo key ${DEMO_API_KEY}`);

  const devServer = spawn(path.join(root, "node_modules", ".bin", "webpack"), ["serve", "--mode", "development"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, MD_SANDBOX_PORT: String(port), MD_DEV_SERVER_PORT: String(devPort) },
  });
  let announced = false;
  devServer.stdout.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!announced && /compiled successfully/.test(chunk.toString())) {
      announced = true;
      console.log(`
Market Data add-in is being served on ${devOrigin} (self-signed certificate).

  • In a browser: open ${devOrigin}/ (accept the certificate once).
    The pane runs outside Office against the sandbox.
${sideloading()}
  • The service: the sandbox through ${devOrigin}/sandbox-api; set another
    base URL and your API key in the pane's Settings (see README).

Press Ctrl+C to stop.`);
    }
  });

  const stop = async () => {
    devServer.kill("SIGTERM");
    await sandbox.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  devServer.on("exit", async (code) => {
    await sandbox.close();
    process.exit(code ?? 1);
  });
}

main().catch((error: Error) => {
  console.error(`npm start failed: ${error.message}`);
  process.exit(1);
});
