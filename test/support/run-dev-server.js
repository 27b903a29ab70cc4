/**
 * Runs webpack-dev-server with webpack.config.js's own devServer settings and
 * middleware, for tests, outside jest (the dev server loads modules jest's
 * runtime cannot). Only what a test cannot use is swapped: a random port
 * (unless MD_DEV_SERVER_PORT names one, as `npm start` passes it), plain http
 * instead of the self-signed https, the built dist/ as its static files and a
 * one-line entry instead of compiling the add-in. The configuration's copied
 * files (the manifest with its host substituted, the help pages, office.js)
 * are produced as `npm start` produces them and served ahead of dist/. Prints
 * `listening <port> host=<configured host> address=<bound address>` once it
 * serves; stops on SIGTERM.
 */
const fs = require("fs");
const os = require("os");
const path = require("path");
const webpack = require("webpack");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const WebpackDevServer = require("webpack-dev-server");
const configFor = require("../../webpack.config.js");

async function main() {
  const config = configFor({}, { mode: "development" });
  const devServer = config.devServer;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "md-dev-server-"));
  fs.writeFileSync(path.join(work, "entry.js"), "export {};\n");
  const compiler = webpack({
    mode: "development",
    context: path.resolve(__dirname, "../.."),
    entry: path.join(work, "entry.js"),
    output: { path: path.join(work, "out") },
    plugins: config.plugins.filter((plugin) => plugin instanceof CopyWebpackPlugin),
    infrastructureLogging: { level: "none" },
  });
  const server = new WebpackDevServer(
    {
      ...devServer,
      port: process.env.MD_DEV_SERVER_PORT ? devServer.port : "auto",
      server: "http",
      static: { directory: path.resolve(__dirname, "../../dist"), watch: false },
      hot: false,
      liveReload: false,
      client: false,
      webSocketServer: false,
    },
    compiler,
  );
  await server.start();
  process.stdout.write(
    `listening ${server.options.port} host=${devServer.host} address=${server.server.address().address}\n`,
  );
  process.on("SIGTERM", () => {
    server.stop().finally(() => {
      fs.rmSync(work, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
