/**
 * A component that updates after a promise: what React's act() warning is
 * about. Used by test/taskpane/clean-output.test.tsx and its fixture
 * (test/support/warnings-fixture/) to provoke that warning and to avoid it.
 */
import { render } from "@testing-library/react";
import { useEffect, useState } from "react";

export function LateText({ text }: { text: Promise<string> }) {
  const [shown, setShown] = useState("");
  useEffect(() => void text.then(setShown), [text]);
  return <p data-testid="late">{shown}</p>;
}

/**
 * Renders LateText and lets its promise settle without awaiting the update the way a test should
 * (findBy…): the component's own .then runs first, so it has updated outside act once this returns.
 */
export async function updateOutsideAct(): Promise<void> {
  let answer: (text: string) => void = () => undefined;
  const text = new Promise<string>((resolve) => (answer = resolve));
  render(<LateText text={text} />);
  answer("here");
  await text;
}
