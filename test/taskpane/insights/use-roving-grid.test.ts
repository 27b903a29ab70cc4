import { moveInGrid } from "../../../src/taskpane/insights/use-roving-grid";

// Three cards (rows) of three stops each (the card's text, Insert, Copy), and a last card with two.
const LENGTHS = [3, 3, 3, 2];

describe("moveInGrid: where a key moves focus in the insight cards' layout grid", () => {
  it.each([
    ["ArrowDown", false, { row: 0, column: 1 }, { row: 1, column: 1 }],
    ["ArrowDown", false, { row: 2, column: 2 }, { row: 3, column: 1 }],
    ["ArrowDown", false, { row: 3, column: 0 }, { row: 3, column: 0 }],
    ["ArrowUp", false, { row: 0, column: 2 }, { row: 0, column: 2 }],
    ["ArrowUp", false, { row: 2, column: 0 }, { row: 1, column: 0 }],
    ["ArrowRight", false, { row: 1, column: 2 }, { row: 1, column: 2 }],
    ["ArrowRight", false, { row: 1, column: 0 }, { row: 1, column: 1 }],
    ["ArrowLeft", false, { row: 1, column: 0 }, { row: 1, column: 0 }],
    ["Home", false, { row: 2, column: 2 }, { row: 2, column: 0 }],
    ["End", false, { row: 2, column: 0 }, { row: 2, column: 2 }],
    ["Home", true, { row: 2, column: 2 }, { row: 0, column: 0 }],
    ["End", true, { row: 0, column: 0 }, { row: 3, column: 1 }],
    ["PageDown", false, { row: 0, column: 0 }, { row: 3, column: 0 }],
    ["PageUp", false, { row: 3, column: 1 }, { row: 0, column: 1 }],
    ["Tab", false, { row: 1, column: 1 }, null],
    ["Enter", false, { row: 1, column: 1 }, null],
  ])("%s (ctrl %s) from %o: %o", (key, ctrl, at, expected) => {
    expect(moveInGrid(key, ctrl, at, LENGTHS)).toEqual(expected);
  });
});
