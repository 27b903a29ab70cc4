/**
 * The bundle world: the built dist/functions.js, loaded as Excel's
 * custom-functions runtime loads it (harness/bundle.ts), against an in-process
 * sandbox, with the sandbox's address and its demo key stored as the user's
 * settings. `useBundle(sandboxOptions)` starts the sandbox before the suite
 * (or describe block) and closes it after; `bundle` is one bundle for the
 * block, loaded when a test first calls it; `load()` loads a fresh one (more
 * settings, a host's requirement sets, extra globals). `useBundleOver` does
 * the same over a sandbox another world brings (the pane rig's).
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
  /** The block's bundle, loaded on first use with the default settings (or useBundle's `blockBundle`). */
  bundle: LoadedBundle;
  /** A fresh bundle pointed at the sandbox with the demo key. */
  load(options?: BundleLoad): LoadedBundle;
}

/** `blockBundle`: how the block's `bundle` is loaded (a host's requirement sets, more settings); `load()` takes its own. */
export function useBundle(sandboxOptions: SandboxOptions = {}, blockBundle: BundleLoad = {}): BundleWorld {
  const sandbox = useSandbox(sandboxOptions);
  return useBundleOver(() => sandbox, blockBundle);
}

/**
 * The bundle world over a sandbox another set-up of the same block starts and
 * closes (usePaneRig's: `useBundleOver(() => rig.sandbox)`), called after that
 * set-up so its sandbox is up first. A bundle has nothing to close.
 */
export function useBundleOver(current: () => SandboxHandle, blockBundle: BundleLoad = {}): BundleWorld {
  let bundle: LoadedBundle | undefined;
  let started = false;
  const sandbox = lateBound("the bundle's sandbox (useBundle)", () => (started ? current() : undefined));
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
    bundle: lateBound("the bundle (useBundle)", () => (started ? (bundle ??= load(blockBundle)) : undefined)),
    load,
  };
}
