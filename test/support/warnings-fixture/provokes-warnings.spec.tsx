/** @jest-environment jsdom */
/**
 * Not part of any suite (its name does not end in .test.tsx): the file
 * test/taskpane/clean-output.test.tsx runs in a jest of its own, to show the
 * set-up (test/support/fail-on-warnings.ts) fails each test that provokes a
 * warning, and only those.
 */
import { EventEmitter } from "node:events";
import { render, screen } from "@testing-library/react";
import { LateText, updateOutsideAct } from "../late-text";

const nextTick = () => new Promise<void>((resolve) => process.nextTick(resolve));

it("updates a component after a promise it does not await", async () => {
  await updateOutsideAct();
});

it("gives an emitter one listener too many", async () => {
  const emitter = new EventEmitter();
  for (let i = 0; i <= emitter.getMaxListeners(); i++) emitter.on("close", () => undefined);
  await nextTick();
});

it("emits a deprecation warning", async () => {
  process.emitWarning("this API goes away", "DeprecationWarning");
  await nextTick();
});

it("awaits what it triggered", async () => {
  render(<LateText text={Promise.resolve("here")} />);
  expect((await screen.findByText("here")).textContent).toBe("here");
});
