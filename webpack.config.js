/**
 * Builds the shared-runtime add-in:
 *   dist/functions.js    custom functions + the shared API client (no UI code)
 *   dist/functions.json  metadata generated from JSDoc in src/functions/functions.ts
 *   dist/taskpane.html   the shared page: office.js, then functions.js, then the UI chunk
 *   dist/office-js-check.js  run before office.js: says why the pane cannot start when office.js does not load
 *   dist/taskpane.js     the task pane UI (React + Fluent UI)
 *   dist/auth-redirect.html  where the sign-in popup lands (MSAL's redirect bridge, for a gateway that asks for sign-in)
 *   dist/manifest.xml    the manifest with the add-in's host substituted
 *
 * Targets (`--env target=…`, default from --mode):
 *   development  office.js served from the npm package, sandbox as default service, demo key
 *   test         production minification, but office.js from the package (tests run offline)
 *   production   office.js from Microsoft's CDN, service address from MD_BASE_URL
 */
const path = require("path");
const webpack = require("webpack");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const { Marked } = require("marked");
const pkg = require("./package.json");

const DEV_HOST = "https://localhost:3000";
const SANDBOX_PORT = Number(process.env.MD_SANDBOX_PORT || 3001);
// `npm start` moves the dev server with MD_DEV_SERVER_PORT; the manifest and help links it serves follow (addinHostFor).
const DEV_SERVER_PORT = Number(process.env.MD_DEV_SERVER_PORT || 3000);
const SANDBOX_DEMO_KEY = "md-sandbox-demo";
const OFFICE_JS_CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

// The files office.js loads next to itself inside Excel (host scripts, strings);
// the other 270 files of the package are for other hosts or debugging.
const OFFICE_JS_FILES = [
  "office.js",
  "o15apptofilemappingtable.js",
  "custom-functions-runtime.js",
  "excel-web-16.00.js",
  "excel-web-16.00-core.js",
  "excel-win32-16.01.js",
  "excel-win32-16.01-core.js",
  "excel-mac-16.00.js",
  "excel-mac-16.00-core.js",
  "en-us/office_strings.js",
];

/** GitHub-style heading ids ("MD.SERIES" → "mdseries"), the anchors functions.json help links use. */
function renderReference(markdown, title = "Market Data functions: reference") {
  const marked = new Marked({
    renderer: {
      heading({ tokens, depth, text }) {
        const id = text
          .toLowerCase()
          .replace(/[^\w\s-]/g, "")
          .trim()
          .replace(/\s+/g, "-");
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font:15px/1.5 "Segoe UI",system-ui,sans-serif;max-width:860px;margin:24px auto;padding:0 16px;color:#242424}
code,pre{font-family:Consolas,monospace;background:#f5f5f5}pre{padding:8px;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #d1d1d1;padding:4px 8px;text-align:left;vertical-align:top}</style>
</head><body>
${marked.parse(markdown)}
</body></html>
`;
}

/** Replaces the development host in an emitted asset (functions.json help links). */
class SubstituteHostPlugin {
  constructor(asset, from, to) {
    Object.assign(this, { asset, from, to });
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap("SubstituteHostPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: "SubstituteHostPlugin", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE },
        () => {
          const asset = compilation.getAsset(this.asset);
          if (!asset || this.from === this.to) return;
          const text = asset.source.source().toString().split(this.from).join(this.to);
          compilation.updateAsset(this.asset, new webpack.sources.RawSource(text));
        },
      );
    });
  }
}

/** Dev-server middleware: the bare origin redirects to the pane. */
const rootToPane = {
  name: "root-to-pane",
  middleware: (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const [pathname, query] = req.url.split("?");
    if (pathname !== "/") return next();
    res.statusCode = 302;
    res.setHeader("Location", `/taskpane.html${query ? `?${query}` : ""}`);
    res.end();
  },
};

/**
 * The task pane's Content-Security-Policy (a <meta> in taskpane.html; the
 * gateway sends it as a header too). Only what the pane needs:
 * - script-src: the pane's own bundles and Microsoft's office.js CDN (production office.js and the host scripts it
 *   loads from there). Eval source maps (development) add 'unsafe-eval'.
 * - style-src-elem without 'unsafe-inline': Fluent UI's Griffel creates empty <style> elements and fills them through
 *   CSSOM (insertRule), which CSP does not govern; the hash is that of the empty string, so it admits those empty
 *   elements and no style text. style-src-attr 'unsafe-inline': office.js sets style attributes (its hidden frames'
 *   "display:none"). style-src keeps 'unsafe-inline' only as the fallback for browsers without -elem/-attr.
 * - connect-src: https (the service address is the user's to choose); plain http to loopback only in development
 *   and test builds, which talk to a local sandbox.
 * - frame-src: office.js's own frames in production — in Excel on the web it checks the host's trust in a hidden
 *   frame loaded from its own folder on the CDN (AgaveErrorUX/index.html under appsforoffice.microsoft.com), and on
 *   Windows it posts telemetry through a frame on telemetryservice.firstpartyapps.oaspapps.com (both URLs are in
 *   @microsoft/office-js's dist/excel-web-16.00-core.js and excel-win32-16.00.js). Development and test builds serve
 *   office.js from the dev server, so its frames are 'self' there, and an outside-Office telemetry frame to an
 *   external host stays refused (no request leaves the machine).
 */
function paneCsp({ production, evalSourceMaps }) {
  return [
    "default-src 'self'",
    `script-src 'self' https://appsforoffice.microsoft.com${evalSourceMaps ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "style-src-elem 'self' 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' https:${production ? "" : " http://127.0.0.1:* http://localhost:*"}`,
    `frame-src 'self'${production ? " https://appsforoffice.microsoft.com https://telemetryservice.firstpartyapps.oaspapps.com" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/** A setting the build cannot go on without: webpack.config.js prints its message alone (no stack) and exits 1. */
class BuildSettingError extends Error {}

/**
 * Where the add-in is served: MD_ADDIN_URL, required for a production build (without it its manifest would point
 * Excel at localhost); development and test builds are served by the dev server, on MD_DEV_SERVER_PORT.
 */
function addinHostFor(target) {
  const url = process.env.MD_ADDIN_URL;
  if (target === "production" && !url) {
    throw new BuildSettingError(
      "The production build needs MD_ADDIN_URL, the https address the add-in will be served from: " +
        "it goes into the manifest, which would otherwise send every user's Excel to https://localhost:3000. " +
        "Set it (and the service address, MD_BASE_URL) and build again, for example: " +
        "MD_ADDIN_URL=https://addin.example.com MD_BASE_URL=https://<service host> npm run build " +
        '(README, "Production build"). For a local build use npm run build:dev, or --env target=test.',
    );
  }
  return (url || `https://localhost:${DEV_SERVER_PORT}`).replace(/\/+$/, "");
}

function configFor(env = {}, argv = {}) {
  const mode = argv.mode || "production";
  const target = env.target || (mode === "production" ? "production" : "development");
  const localOfficeJs = target !== "production";
  const addinHost = addinHostFor(target);
  // Development and test builds talk to the local sandbox through the dev server's proxy.
  const baseUrl =
    process.env.MD_BASE_URL || (target === "production" ? "" : `https://localhost:${DEV_SERVER_PORT}/sandbox-api`);
  const demoKey = target === "production" ? "" : SANDBOX_DEMO_KEY;

  return {
    mode,
    devtool: mode === "production" ? "source-map" : "eval-cheap-module-source-map",
    entry: {
      functions: "./src/functions/functions.ts",
      taskpane: "./src/taskpane/index.tsx",
      "auth-redirect": "./src/taskpane/auth-redirect.ts",
    },
    output: {
      path: path.resolve(__dirname, "dist"),
      filename: "[name].js",
      chunkFilename: "[name].[contenthash:8].js",
      clean: true,
    },
    resolve: { extensions: [".ts", ".tsx", ".js"] },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: { loader: "ts-loader", options: { transpileOnly: true } },
        },
      ],
    },
    performance: { hints: false },
    plugins: [
      new webpack.DefinePlugin({
        __MD_VERSION__: JSON.stringify(pkg.version),
        __MD_DEFAULT_BASE_URL__: JSON.stringify(baseUrl),
        __MD_DEFAULT_API_KEY__: JSON.stringify(demoKey),
        __MD_BUILD_TARGET__: JSON.stringify(target),
      }),
      new CustomFunctionsMetadataPlugin({
        output: "functions.json",
        input: "./src/functions/functions.ts",
      }),
      new SubstituteHostPlugin("functions.json", DEV_HOST, addinHost),
      new HtmlWebpackPlugin({
        filename: "taskpane.html",
        template: "./src/taskpane/taskpane.html",
        // functions.js must run (and register every function) before the UI chunk loads.
        chunks: ["functions", "taskpane"],
        chunksSortMode: "manual",
        scriptLoading: "defer",
        templateParameters: {
          officeJsUrl: localOfficeJs ? "office-js/office.js" : OFFICE_JS_CDN,
          csp: paneCsp({ production: target === "production", evalSourceMaps: mode !== "production" }),
        },
      }),
      new HtmlWebpackPlugin({
        filename: "auth-redirect.html",
        chunks: ["auth-redirect"],
        scriptLoading: "defer",
        templateContent: ({ htmlWebpackPlugin }) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${paneCsp({ production: target === "production", evalSourceMaps: mode !== "production" })}">
<title>Signing in to Market Data</title>${htmlWebpackPlugin.tags.headTags}</head>
<body><p>Signing in to Market Data…</p></body></html>
`,
        inject: false,
      }),
      new CopyWebpackPlugin({
        patterns: [
          { from: "assets/*.png", to: "assets/[name][ext]" },
          // Run before office.js by taskpane.html, as written: it must work when nothing else loads.
          { from: "src/taskpane/office-js-check.js", to: "office-js-check.js" },
          {
            from: "docs/functions.md",
            to: "docs/functions.html",
            transform: (content) => renderReference(content.toString()),
          },
          // The manifest's SupportUrl and LearnMoreUrl: a help page, not the task pane.
          {
            from: "docs/help.md",
            to: "docs/help.html",
            transform: (content) => renderReference(content.toString(), "Market Data for Excel: help"),
          },
          {
            from: "manifest.xml",
            to: "manifest.xml",
            transform: (content) => content.toString().split(DEV_HOST).join(addinHost),
          },
          ...(localOfficeJs
            ? OFFICE_JS_FILES.map((file) => ({
                from: `node_modules/@microsoft/office-js/dist/${file}`,
                to: `office-js/${file}`,
                info: { minimized: true },
              }))
            : []),
        ],
      }),
    ],
    devServer: {
      port: DEV_SERVER_PORT,
      // Loopback only: the dev server (and the sandbox behind its proxy) is not offered to the network.
      host: "localhost",
      server: "https",
      headers: { "Access-Control-Allow-Origin": "*" },
      static: false,
      client: { overlay: false },
      // "/" opens the pane instead of "Cannot GET /".
      setupMiddlewares: (middlewares) => [rootToPane, ...middlewares],
      proxy: [
        {
          context: ["/sandbox-api"],
          target: `http://127.0.0.1:${SANDBOX_PORT}`,
          pathRewrite: { "^/sandbox-api": "" },
        },
      ],
    },
  };
}

/** webpack's entry point: a missing setting is one paragraph on stderr and exit code 1, not webpack-cli's stack trace. */
module.exports = (env, argv) => {
  try {
    return configFor(env, argv);
  } catch (error) {
    if (!(error instanceof BuildSettingError)) throw error;
    process.stderr.write(`\n${error.message}\n\n`);
    process.exit(1);
  }
};

module.exports.paneCsp = paneCsp;
