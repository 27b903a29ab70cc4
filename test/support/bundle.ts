/**
 * The bundle world: the built dist/functions.js, loaded as Excel's
 * custom-functions runtime loads it (harness/bundle.ts), against an in-process
 * sandbox, with the sandbox's address and its demo key stored as the user's
 * settings. `useBundle(sandboxOptions)` starts the sandbox before the suite
 * (or describe block) and closes it after; `bundle` is one bundle for the
 * block, loaded when a test first calls it; `load()` loads a fresh one (more
 * settings, a host's requirement sets, extra globals).
 */
import { DEMO_API_KEY, type SandboxHandle, type SandboxOptions } from "../../sandbox/server";
import { loadFunctionsBundle, type LoadedBundle, type LoadOptions } from "../../harness/bundle";
import { lateBound } from "./late-bound";
import { useSandbox } from "./sandbox";

export interface BundleLoad extends Omit<LoadOptions, "storage"> {
  /** Stored settings besides (or instead of) the sandbox's address and the demo key. */
  storage?: Record<string, string>;
}

export interface BundleWorld {
  sandbox: SandboxHandle;
  /** The block's bundle, loaded with the default settings on first use. */
  bundle: LoadedBundle;
  /** A fresh bundle pointed at the sandbox with the demo key. */
  load(options?: BundleLoad): LoadedBundle;
}

export function useBundle(sandboxOptions: SandboxOptions = {}): BundleWorld {
  const sandbox = useSandbox(sandboxOptions);
  let bundle: LoadedBundle | undefined;
  let started = false;
  beforeAll(() => {
    started = true;
  });
  afterAll(() => {
    started = false;
    bundle = undefined;
  });
  const load = ({ storage, ...options }: BundleLoad = {}): LoadedBundle =>
    loadFunctionsBundle({ ...options, storage: { "md.baseUrl": sandbox.url, "md.apiKey": DEMO_API_KEY, ...storage } });
  return {
    sandbox,
    bundle: lateBound("the bundle (useBundle)", () => (started ? (bundle ??= load()) : undefined)),
    load,
  };
}
