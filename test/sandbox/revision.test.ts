/** The sandbox's revision knob: history revised as a methodology change would, for the persistent-cache tests. */
import type { SandboxHandle } from "../../sandbox/server";
import { series, startTestSandbox } from "./sandbox-helpers";

describe("sandbox revision", () => {
  let sandbox: SandboxHandle;
  afterEach(() => sandbox?.close());

  it("scales every series value by 1 + revision, old days included; reset() restores the start-up revision", async () => {
    sandbox = await startTestSandbox();
    const window = { startDate: "2023-01-01", endDate: "2023-01-10" };
    const before = await series(sandbox, "eth", "PRICE", window);
    sandbox.setRevision(1);
    const after = await series(sandbox, "eth", "PRICE", window);
    expect(after.map((p) => p.date)).toEqual(before.map((p) => p.date));
    expect(after.map((p) => p.val)).toEqual(before.map((p) => p.val * 2));
    sandbox.reset();
    expect(await series(sandbox, "eth", "PRICE", window)).toEqual(before);
  });

  it("refuses a negative revision", async () => {
    sandbox = await startTestSandbox();
    expect(() => sandbox.setRevision(-1)).toThrow(RangeError);
  });
});
