/**
 * One source for what IT registers (src/office/sign-in/registration.ts): the
 * two READMEs' sign-in sections show exactly the module's redirect URIs, its
 * Microsoft Entra ID scope and Application ID URI, and the build's and the
 * gateway's settings; the code sends the module's redirect URI.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { msalConfiguration } from "../../../src/office/sign-in/msal-sign-in";
import {
  AUTH_REDIRECT_PAGE,
  buildSettings,
  entraApi,
  entraGatewayOptions,
  redirectUris,
  SIGN_IN_DIALOG_PAGE,
} from "../../../src/office/sign-in/registration";

const ROOT = path.join(__dirname, "..", "..", "..");
const PLACEHOLDER = "<add-in host>";
const EXAMPLE_HOST = "md.example.com";

/** The text of a Markdown file from the heading `from` (a whole line) up to the next heading of the same level. */
function section(file: string, from: string): string {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const start = text.indexOf(`\n${from}\n`);
  if (start < 0) throw new Error(`${file}: no heading "${from}"`);
  const level = /^#+ /.exec(from)![0];
  const end = text.indexOf(`\n${level}`, start + from.length + 2);
  return text.slice(start, end < 0 ? undefined : end);
}

/** Every redirect URI a text names for the add-in's host: the broker's, and each https page of the host. */
function redirectUrisIn(text: string): string[] {
  const host = PLACEHOLDER.replace(/[<>]/g, "\\$&");
  const found = text.match(new RegExp(`brk-multihub://${host}|https://${host}/[\\w.-]+\\.html`, "g")) ?? [];
  return [...new Set(found)].sort();
}

const SECTIONS: [file: string, heading: string][] = [
  ["README.md", "## Deploying for a team"],
  ["deploy/nginx/README.md", "## Sign-in (firm mode)"],
];

describe.each(SECTIONS)("%s, %s, shows what registration.ts lists", (file, heading) => {
  const text = section(file, heading);

  it("the redirect URIs, all of them and no other", () => {
    expect(redirectUrisIn(text)).toEqual(
      redirectUris(PLACEHOLDER)
        .map((r) => r.uri)
        .sort(),
    );
  });

  it("each of them next to Microsoft Entra ID's registration, the https pages for any other provider", () => {
    const entra = text.slice(text.search(/Microsoft Entra ID/), text.search(/[Aa]ny other OpenID Connect provider/));
    expect(redirectUrisIn(entra)).toEqual(
      redirectUris(PLACEHOLDER)
        .map((r) => r.uri)
        .sort(),
    );
    // That paragraph or list item alone.
    const others = /[Aa]ny other OpenID Connect provider[\s\S]*?(?=\n\n|\n {2}- )/.exec(text)![0];
    const forAll = redirectUris(PLACEHOLDER).filter((r) => r.providers === "all");
    for (const { uri } of forAll) expect(redirectUrisIn(others)).toContain(uri);
    expect(redirectUrisIn(others).filter((uri) => uri.startsWith("brk-multihub:"))).toEqual([]);
  });

  it("the Entra scope and Application ID URI, and the gateway's options for them", () => {
    const api = entraApi(PLACEHOLDER, "<client id>");
    expect(text).toContain(api.applicationIdUri);
    const options = entraGatewayOptions(EXAMPLE_HOST, "<client id>", "<tenant id>");
    const flat = text.replace(/\\\n\s*/g, "");
    for (let i = 0; i < options.length; i += 2) expect(flat).toContain(`${options[i]} ${options[i + 1]}`);
  });

  it("the build's settings", () => {
    const { MD_ADDIN_URL, MD_BASE_URL } = buildSettings(EXAMPLE_HOST);
    expect(text).toMatch(new RegExp(`MD_ADDIN_URL=${MD_ADDIN_URL.replace(/\./g, "\\.")} MD_BASE_URL=${MD_BASE_URL} `));
  });
});

describe("the code sends what IT registers", () => {
  it("MSAL's redirect URI is the module's page beside the pane", () => {
    const config = msalConfiguration(
      { authority: "https://login.microsoftonline.com/tid/v2.0", clientId: "cid", scopes: ["s"] },
      `https://${EXAMPLE_HOST}/taskpane.html`,
    );
    expect(config.auth.redirectUri).toBe(`https://${EXAMPLE_HOST}/${AUTH_REDIRECT_PAGE}`);
    expect(redirectUris(EXAMPLE_HOST).map((r) => r.uri)).toContain(config.auth.redirectUri);
  });

  it("the build emits the sign-in landing page and the dialog's page under those names", () => {
    const webpack = readFileSync(path.join(ROOT, "webpack.config.js"), "utf8");
    expect(webpack).toContain(`signInPage("${AUTH_REDIRECT_PAGE}"`);
    expect(webpack).toMatch(new RegExp(`signInPage\\(\\s*"${SIGN_IN_DIALOG_PAGE.replace(".", "\\.")}"`));
  });
});
