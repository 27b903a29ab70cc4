import { ArgumentError } from "../../src/core/errors";
import { parseOptions } from "../../src/core/options";
import { SERIES_OPTIONS } from "../../src/core/series-table";

const DEFAULTS = {
  headers: true,
  dates: true,
  order: "asc",
  fill: "blank",
  days: "all",
  last: null,
  transpose: false,
  period: "start",
  partial: "keep",
  fiscal: false,
  transform: "none",
  rolling: null,
  rolling_stat: "avg",
};

describe("options", () => {
  it.each([
    [null, {}],
    ["", {}],
    [[[null, null]], {}],
    ["headers=false", { headers: false }],
    ["headers=false; order=desc; fill=prev", { headers: false, order: "desc", fill: "prev" }],
    [" HEADERS = No ;ORDER=DESC ", { headers: false, order: "desc" }],
    ["headers=false, last=10", { headers: false, last: 10 }],
    ["dates=0;transpose=1", { dates: false, transpose: true }],
    ["transpose=yes", { transpose: true }],
    ["fill=na; days=weekdays", { fill: "na", days: "weekdays" }],
    ["last=1", { last: 1 }],
    [";;order=desc;", { order: "desc" }],
    [
      [
        ["headers", false],
        ["order", "desc"],
        [null, null],
        ["last", 5],
      ],
      { headers: false, order: "desc", last: 5 },
    ],
    [
      [
        ["headers", "FALSE"],
        ["transpose", 1],
      ],
      { headers: false, transpose: true },
    ],
    [[["headers=false"], ["order=desc; last=3"]], { headers: false, order: "desc", last: 3 }],
    [[["Last", "7"]], { last: 7 }],
  ])("%j", (value, expected) => {
    expect(parseOptions(value, SERIES_OPTIONS)).toEqual({ ...DEFAULTS, ...expected });
  });

  it.each([
    [
      "heders=false",
      'options: "heders" is not an option here. Use headers, dates, order, fill, days, last, transpose, period, partial, fiscal, transform, rolling or rolling_stat, written as "key=value; key=value".',
    ],
    ["order=up", 'options: order="up" is not accepted. Use order=asc or order=desc.'],
    ["fill=zero", 'options: fill="zero" is not accepted. Use fill=blank, fill=prev or fill=na.'],
    [
      "headers=maybe",
      'options: headers="maybe" is not accepted. Use headers=true or headers=false (also yes/no, 1/0).',
    ],
    ["last=0", 'options: last="0" is not accepted. Use a whole number from 1 to 1000000, e.g. last=10.'],
    ["last=2.5", 'options: last="2.5" is not accepted.'],
    ["last=-3", 'options: last="-3" is not accepted.'],
    ["headers", 'options: "headers" is not key=value. Write options as "key=value; key=value".'],
    ["headers=", "options: headers has no value. Use headers=true or headers=false (also yes/no, 1/0)."],
    ["order=asc; order=desc", "options: order is given twice."],
    [5, 'options: 5 is not options text. Use "key=value; key=value" or a two-column range of keys and values.'],
    [[["last", 2.5]], "options: last=2.5 is not accepted."],
    [[["headers", 2]], "options: headers=2 is not accepted."],
    [[[3, "x"]], 'options: the key column holds 3 beside "x"; keys are option names such as headers.'],
    [[[null, "desc"]], 'options: the key column holds a blank beside "desc"'],
    [[["order", "desc", "x"]], "options: a range of options has two columns: keys, then values."],
    [[[true], ["x"]], "options: TRUE is not options text."],
  ])("refuses %j", (value, message) => {
    let error: unknown;
    try {
      parseOptions(value, SERIES_OPTIONS);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message.startsWith(message)).toBe(true);
  });
});
