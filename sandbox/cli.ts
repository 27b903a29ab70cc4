/**
 * `npm run sandbox [-- --port 3001 --key md-sandbox-demo …]`: runs the sandbox
 * market-data API until interrupted. `--help` lists the flags.
 */
import { parseArgs } from "node:util";
import { DEFAULT_ASSET_COUNT } from "./asset-catalog";
import type { EncodedKeyForm, KeyHeader } from "./encoded-key";
import { OFF } from "./realistic";
import { DEMO_API_KEY, type SandboxOptions, startSandbox } from "./server";

const HELP = `Sandbox market-data API (synthetic data for development, demos and tests)

  --port <n>             port to listen on (default 3001; 0 picks a free port)
  --host <addr>          address to bind (default 127.0.0.1)
  --key <k>              API key required by /data/api/ and /flows/top/ (default the demo key ${DEMO_API_KEY})
  --latency <ms>         delay before every response (default 0)
  --insight-delay <ms>   delay of the first uncached insight-feed call (default 3000)
  --assets <n>           asset catalog size: synthetic filler tokens are added to reach it
                         (default: the ${DEFAULT_ASSET_COUNT} named assets only; e.g. 20000 for picker tests)
  --hostile-fixtures     add the tokens with markup-like titles that rendering tests use
  --seed <n>             data and fault seed (default 1)
  --today <YYYY-MM-DD>   last day with data (default: the current UTC date)
  --error-rate <0..1>    share of requests answered 500/503
  --rate-limit-rate <0..1>  share of requests answered 429 with Retry-After
  --retry-after <s>      Retry-After seconds on 429 (default 1)
  --drop-rate <0..1>     share of connections destroyed without a response
  --bad-json-rate <0..1> share of 200 responses sent with a truncated JSON body

  The real service's behaviours (real-service.md; npm start uses them):
  --realistic            sentences in place of series, null newest days, date-less
                         requests answered with bare numbers, case echo, every
                         10th answer an empty 200, the catalog's real field names
  --empty-body-every <n> with --realistic: every n-th answer is an empty 200 (0: never)
  --omit-unknown-symbols a symbol the catalog does not know is left out of series answers
                         (as the contract allows; with or without --realistic)

  A broken or hostile service:
  --poison-symbol <s>    a series request naming s fails with HTTP 500 as a whole (repeatable)
  --max-url <n>          requests longer than n characters (path and query) get 414
  --redirect-to <origin> answer every request 302 to the same path and query there
  --endless-body         answers never finish: headers, a few bytes, then one space a second
  --endless-body-path <p>  only answers to paths starting with p, e.g. /data/api/ (repeatable)
  --echo-key             quote the API key in catalog titles, metric descriptions,
                         insight cards, flow chain names and series messages
  --tricky-json <s>      s's series come back with values as hexadecimal text or dates
                         with a time; flows name chains __proto__ and constructor (repeatable)
  --huge-body <bytes>    pad every answer to this many bytes (streamed)
  --location-key         answer 201 with a Location holding the request's path and query (key included)
  --echo-request-url     add x-request-url with the request's path and query (key included)
  --gzip-body            gzip every answer, whatever Accept-Encoding says
  --escaped-key          quote the key in every JSON answer in JSON escapes (\\/, \\uXXXX)
  --chunked-empty        answer every request 200 with an empty chunked body
  --reflect-header <h>   copy request header h into every JSON answer (repeatable)
  --key-in-header <h>    write the key into response header h: Content-Type, Cache-Control
                         or Retry-After (repeatable)
  --encoded-key <form>   quote the key in every JSON answer as base64, base64url, hex, hex-upper,
                         upper-case, html-decimal, html-hex or double-percent; or send the body
                         as utf-16, gzip-as-identity, deflate-as-identity or brotli-as-identity
  --big-series <n>       every series is n daily points from its startDate on
  --deep-insights <n>    every insight card gets a field nested n objects deep
  --data-everywhere      every series has a point for every day asked for, centuries back
  --outside-window <s>   s's series end with a point dated 2099-01-01, outside the window (repeatable)
  --duplicate-date <s>   s's series send their newest date twice, the second time with another value (repeatable)
  --bad-values <s>       s's series carry "NaN", "Infinity", 1e999, "-Infinity" or "12.5" as every
                         other value (repeatable)
  --long-title <s>       s's asset catalog title is 40,000 characters (repeatable)
  --quiet                do not print one line per request
  --help                 show this text`;

function number(
  flag: string,
  text: string | undefined,
  check: (n: number) => boolean,
  rule: string,
): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || !check(value))
    throw new Error(`--${flag} must be ${rule}, got "${text}"`);
  return value;
}

/** `--realistic` switches every behaviour of the preset on; `--omit-unknown-symbols` adds its own, with or without it. */
function realisticFlags(
  realistic: boolean | undefined,
  emptyBodyEvery: number | undefined,
  omitUnknownSymbols: boolean | undefined,
): SandboxOptions["realistic"] {
  if (!realistic && !omitUnknownSymbols) return undefined;
  const chosen = {
    ...(realistic ? {} : OFF),
    ...(emptyBodyEvery === undefined ? {} : { emptyBodyEvery }),
    ...(omitUnknownSymbols ? { omitUnknownSymbols } : {}),
  };
  return Object.keys(chosen).length === 0 ? true : chosen;
}

function parseOptions(argv: string[]): SandboxOptions | "help" {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      key: { type: "string" },
      latency: { type: "string" },
      "insight-delay": { type: "string" },
      assets: { type: "string" },
      "hostile-fixtures": { type: "boolean" },
      seed: { type: "string" },
      today: { type: "string" },
      "error-rate": { type: "string" },
      "rate-limit-rate": { type: "string" },
      "retry-after": { type: "string" },
      "drop-rate": { type: "string" },
      "bad-json-rate": { type: "string" },
      realistic: { type: "boolean" },
      "empty-body-every": { type: "string" },
      "omit-unknown-symbols": { type: "boolean" },
      "poison-symbol": { type: "string", multiple: true },
      "max-url": { type: "string" },
      "redirect-to": { type: "string" },
      "endless-body": { type: "boolean" },
      "endless-body-path": { type: "string", multiple: true },
      "echo-key": { type: "boolean" },
      "tricky-json": { type: "string", multiple: true },
      "huge-body": { type: "string" },
      "location-key": { type: "boolean" },
      "echo-request-url": { type: "boolean" },
      "gzip-body": { type: "boolean" },
      "escaped-key": { type: "boolean" },
      "chunked-empty": { type: "boolean" },
      "reflect-header": { type: "string", multiple: true },
      "key-in-header": { type: "string", multiple: true },
      "encoded-key": { type: "string" },
      "big-series": { type: "string" },
      "deep-insights": { type: "string" },
      "data-everywhere": { type: "boolean" },
      "outside-window": { type: "string", multiple: true },
      "duplicate-date": { type: "string", multiple: true },
      "bad-values": { type: "string", multiple: true },
      "long-title": { type: "string", multiple: true },
      quiet: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) return "help";
  const whole = (n: number) => Number.isInteger(n) && n >= 0;
  const rate = (n: number) => n >= 0 && n <= 1;
  const faults = {
    serverErrorRate: number("error-rate", values["error-rate"], rate, "a number from 0 to 1"),
    rateLimitRate: number("rate-limit-rate", values["rate-limit-rate"], rate, "a number from 0 to 1"),
    retryAfterSeconds: number("retry-after", values["retry-after"], whole, "a whole number of seconds"),
    dropRate: number("drop-rate", values["drop-rate"], rate, "a number from 0 to 1"),
    badJsonRate: number("bad-json-rate", values["bad-json-rate"], rate, "a number from 0 to 1"),
  };
  if (values.key === "") throw new Error("--key must not be empty");
  const emptyBodyEvery = number("empty-body-every", values["empty-body-every"], whole, "a whole number");
  if (emptyBodyEvery !== undefined && !values.realistic) throw new Error("--empty-body-every needs --realistic");
  const endlessPaths = values["endless-body-path"] ?? [];
  const hostile = {
    poisonSymbols: values["poison-symbol"],
    maxUrlLength: number("max-url", values["max-url"], (n) => whole(n) && n > 0, "a whole number > 0"),
    redirectTo: values["redirect-to"],
    endlessBody: endlessPaths.length > 0 ? endlessPaths : values["endless-body"],
    echoKey: values["echo-key"],
    trickyJson: values["tricky-json"],
    hugeBodyBytes: number("huge-body", values["huge-body"], (n) => whole(n) && n > 0, "a whole number of bytes > 0"),
    locationKey: values["location-key"],
    echoRequestUrl: values["echo-request-url"],
    gzipBody: values["gzip-body"],
    escapedKey: values["escaped-key"],
    chunkedEmpty: values["chunked-empty"],
    reflectHeaders: values["reflect-header"],
    keyInHeaders: values["key-in-header"] as KeyHeader[] | undefined,
    encodedKey: values["encoded-key"] as EncodedKeyForm | undefined,
    bigSeries: number("big-series", values["big-series"], (n) => whole(n) && n > 0, "a whole number of points > 0"),
    deepInsights: number("deep-insights", values["deep-insights"], (n) => whole(n) && n > 0, "a whole number > 0"),
    dataEverywhere: values["data-everywhere"],
    outsideWindow: values["outside-window"],
    duplicateDates: values["duplicate-date"],
    badValues: values["bad-values"],
    longTitles: values["long-title"],
  };
  return {
    port: number("port", values.port, (n) => whole(n) && n <= 65535, "a port number from 0 to 65535") ?? 3001,
    host: values.host,
    apiKey: values.key,
    latencyMs: number("latency", values.latency, (n) => n >= 0, "a number of milliseconds ≥ 0"),
    insightFirstCallDelayMs:
      number("insight-delay", values["insight-delay"], (n) => n >= 0, "a number of milliseconds ≥ 0") ?? 3000,
    assetCount: number("assets", values.assets, whole, "a whole number"),
    hostileFixtures: values["hostile-fixtures"] ?? false,
    seed: number("seed", values.seed, Number.isInteger, "an integer"),
    today: values.today,
    faults: Object.fromEntries(Object.entries(faults).filter(([, value]) => value !== undefined)),
    realistic: realisticFlags(values.realistic, emptyBodyEvery, values["omit-unknown-symbols"]),
    hostile: Object.fromEntries(Object.entries(hostile).filter(([, value]) => value !== undefined)),
    quiet: values.quiet ?? false,
  };
}

async function main(): Promise<void> {
  let options: SandboxOptions | "help";
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (options === "help") {
    console.log(HELP);
    return;
  }
  const sandbox = await startSandbox(options);
  // The demo key is public; a key given with --key is never printed.
  const key =
    options.apiKey === undefined || options.apiKey === DEMO_API_KEY ? `demo key ${DEMO_API_KEY}` : "key from --key";
  console.log(`Sandbox market-data API on ${sandbox.url} (${key})`);
  console.log("Synthetic, deterministic sandbox data for development and tests: not market data. Ctrl+C stops it.");
  const stop = () => {
    sandbox.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: Error) => {
  console.error(`Sandbox failed to start: ${error.message}`);
  process.exit(1);
});
