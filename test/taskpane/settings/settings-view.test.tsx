/** @jest-environment jsdom */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { AuthError, NetworkError, ServerError, TimeoutError, type MarketDataError } from "../../../src/api/errors";
import { SETTING_KEYS } from "../../../src/office/settings";
import { createPaneRefreshActions } from "../../../src/refresh/pane-actions";
import { RefreshController } from "../../../src/refresh/refresh-controller";
import { REFRESH_ON_OPEN_SETTING } from "../../../src/refresh/refresh-on-open";
import { SettingsView } from "../../../src/taskpane/settings/settings-view";
import { formatBytes } from "../../../src/taskpane/shared/value-format";
import { compsWorkbook, OPENED_WITH_DOCUMENT } from "../../support/recordings";
import { openRecordedWorkbook } from "../../support/open-workbook";
import { fakeRefresh, isDisabled, makeHarness, renderWith, type HarnessOptions } from "../../support/pane-fakes";

const SECRET = "sk-live-7f3a9c1e22";
const DEMO = "md-sandbox-demo";

async function renderSettings(options: HarnessOptions = {}) {
  const harness = makeHarness(options);
  const view = renderWith(harness, <SettingsView active />);
  // The view reads the store on mount; the buttons are enabled once it has.
  // Generous on a loaded machine: the first render of Fluent's tree under jsdom can take seconds.
  await waitFor(() => expect(isDisabled(screen.getByRole("button", { name: "Test connection" }))).toBe(false), {
    timeout: 10_000,
  });
  return { ...harness, view };
}

function keyInput(): HTMLInputElement {
  return screen.getByLabelText("API key", { selector: "input" }) as HTMLInputElement;
}

function connectionResult(): HTMLElement {
  return screen.getByTestId("connection-result");
}

describe("Settings view: API key", () => {
  it("masks the key and toggles it with the show/hide button", async () => {
    await renderSettings({ stored: { [SETTING_KEYS.apiKey]: SECRET } });
    expect(keyInput().type).toBe("password");
    expect(keyInput().value).toBe(SECRET);
    const show = screen.getByRole("button", { name: "Show API key" });
    expect(show.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(show);
    expect(keyInput().type).toBe("text");
    const hide = screen.getByRole("button", { name: "Hide API key" });
    expect(hide.getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(hide);
    expect(keyInput().type).toBe("password");
  });

  it("saves the trimmed key under md.apiKey and nowhere else, then clears the client's cache", async () => {
    const { storage, client } = await renderSettings();
    const save = screen.getByRole("button", { name: "Save key" });
    expect(isDisabled(save)).toBe(true);
    fireEvent.change(keyInput(), { target: { value: `  ${SECRET}  ` } });
    screen.getByText("Not saved yet.");
    expect(isDisabled(save)).toBe(false);
    fireEvent.click(save);
    await screen.findByText("API key saved on this computer.");
    expect(storage.writes).toEqual([{ op: "set", key: SETTING_KEYS.apiKey, value: SECRET }]);
    expect([...storage.data.keys()]).toEqual([SETTING_KEYS.apiKey]);
    expect(client.clears).toBe(1);
    expect(screen.getByTestId("key-status").textContent).toBe("Your key");
    expect(screen.queryByText("Not saved yet.")).toBeNull();
    // The key is in the (masked) input only, never in a message.
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it.each(["a", "abc1234"])(
    "a key shorter than 8 characters (%j) is refused with the minimum, nothing stored",
    async (short) => {
      const { storage, client } = await renderSettings();
      fireEvent.change(keyInput(), { target: { value: ` ${short} ` } });
      fireEvent.click(screen.getByRole("button", { name: "Save key" }));
      await screen.findByText(
        `Could not save the key: An API key has at least 8 characters; this one has ${short.length}. Paste the whole key from your market-data account.`,
      );
      expect(storage.writes).toEqual([]);
      expect(client.clears).toBe(0);
    },
  );

  it("removing the key returns to the demo key and says so", async () => {
    const { storage } = await renderSettings({
      stored: { [SETTING_KEYS.apiKey]: SECRET },
      defaults: { apiKey: DEMO, baseUrl: "http://127.0.0.1:3001" },
    });
    expect(screen.getByTestId("key-status").textContent).toBe("Your key");
    fireEvent.change(keyInput(), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Save key" }));
    await screen.findByText("Key removed: requests use the sandbox demo key.");
    expect(storage.data.has(SETTING_KEYS.apiKey)).toBe(false);
    expect(screen.getByTestId("key-status").textContent).toBe("Sandbox demo key in use");
  });

  it.each([
    {
      name: "a build with the sandbox demo key",
      defaults: { apiKey: DEMO, baseUrl: "http://127.0.0.1:3001" },
      badge: "Sandbox demo key in use",
      demoNote: true,
      placeholder: "Using the sandbox demo key",
    },
    {
      name: "a production build without a key",
      defaults: { apiKey: "", baseUrl: "https://api.example.test" },
      badge: "No API key",
      demoNote: false,
      placeholder: "Paste your API key",
    },
  ])("with nothing stored, $name shows “$badge”", async ({ defaults, badge, demoNote, placeholder }) => {
    await renderSettings({ defaults });
    expect(screen.getByTestId("key-status").textContent).toBe(badge);
    expect(screen.queryByText(/public demo key/) !== null).toBe(demoNote);
    expect(keyInput().value).toBe("");
    expect(keyInput().placeholder).toBe(placeholder);
  });
});

describe("Settings view: a saved key reaches the refresh logic", () => {
  it("saving a key and removing it each ask the refresh logic to read the key again", async () => {
    const refresh = fakeRefresh();
    const harness = makeHarness({ defaults: { apiKey: DEMO, baseUrl: "http://127.0.0.1:3001" } });
    harness.services.refresh = refresh.actions;
    renderWith(harness, <SettingsView active />);
    await waitFor(() => expect(isDisabled(screen.getByRole("button", { name: "Test connection" }))).toBe(false));
    fireEvent.change(keyInput(), { target: { value: SECRET } });
    fireEvent.click(screen.getByRole("button", { name: "Save key" }));
    await screen.findByText("API key saved on this computer.");
    expect(refresh.asked).toEqual(["checkKey"]);
    fireEvent.change(keyInput(), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Save key" }));
    await screen.findByText("Key removed: requests use the sandbox demo key.");
    expect(refresh.asked).toEqual(["checkKey", "checkKey"]);
  });

  it("after a refresh on open skipped for want of a key, saving the user's key takes “Sign in to refresh” away", async () => {
    // The real controller over a recorded workbook set to refresh on open, reading the key from the view's own store.
    const harness = makeHarness({ defaults: { apiKey: DEMO, baseUrl: "http://127.0.0.1:3001" } });
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = openRecordedWorkbook({
      ...fixture.recording,
      documentSettings: { [REFRESH_ON_OPEN_SETTING]: true },
    });
    const controller = new RefreshController({
      workbook,
      clearCache: () => harness.client.clear(),
      readKey: () => harness.settings.read(),
      calls,
    });
    harness.services.refresh = createPaneRefreshActions(controller);
    // The workbook opened with only the build's demo key: nothing refreshed, the pane asks the user to sign in.
    expect(await controller.runOnOpen(OPENED_WITH_DOCUMENT)).toBeNull();
    renderWith(harness, <SettingsView active />);
    await screen.findByTestId("refresh-sign-in");

    fireEvent.change(keyInput(), { target: { value: SECRET } });
    fireEvent.click(screen.getByRole("button", { name: "Save key" }));
    await screen.findByText("API key saved on this computer.");
    await waitFor(() => expect(screen.queryByTestId("refresh-sign-in")).toBeNull());
    expect(controller.getState()).toMatchObject({ signInRequired: false, keyStatus: "user" });
    // Saving a key only lifts the notice; the workbook is refreshed when the user asks.
    expect(standIn.log.formulaWrites).toEqual([]);
  });
});

describe("Settings view: the firm's gateway holds the key", () => {
  it("says the key is managed by the gateway instead of asking for one, and still tests the connection", async () => {
    const { client } = await renderSettings({ stored: { [SETTING_KEYS.baseUrl]: "/api" }, gatewayKeyMode: "firm" });
    expect(screen.getByTestId("key-managed").textContent).toBe(
      "The API key is managed by your firm's gateway: there is nothing to enter here.",
    );
    expect(screen.queryByLabelText("API key", { selector: "input" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Save key" })).toBeNull();
    expect(screen.getByTestId("key-status").textContent).toBe("Firm key (gateway)");
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    act(() => client.connection.last.resolve({ ok: true, ms: 12 }));
    await waitFor(() => expect(connectionResult().textContent).toBe("Connected in 12 ms."));
  });

  it("a pass-through gateway still asks for the analyst's own key", async () => {
    await renderSettings({ stored: { [SETTING_KEYS.baseUrl]: "/api" }, gatewayKeyMode: "pass-through" });
    expect(screen.queryByTestId("key-managed")).toBeNull();
    expect(keyInput().placeholder).toBe("Paste your API key");
  });
});

describe("Settings view: test connection", () => {
  it.each([
    { ms: 42.4, demo: false, text: "Connected in 42 ms." },
    { ms: 1234.6, demo: false, text: "Connected in 1235 ms." },
    { ms: 7, demo: true, text: "Connected in 7 ms (sandbox demo key)." },
  ])("success after $ms ms (demo key: $demo) reads “$text”", async ({ ms, demo, text }) => {
    const { client } = await renderSettings(
      demo
        ? { defaults: { apiKey: DEMO, baseUrl: "http://127.0.0.1:3001" } }
        : { stored: { [SETTING_KEYS.apiKey]: SECRET } },
    );
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    expect(screen.getByText("Testing the connection…")).toBeTruthy();
    expect(isDisabled(screen.getByRole("button", { name: "Test connection" }))).toBe(true);
    act(() => client.connection.last.resolve({ ok: true, ms }));
    await waitFor(() => expect(connectionResult().textContent).toBe(text));
    expect(screen.queryByText("Testing the connection…")).toBeNull();
    expect(isDisabled(screen.getByRole("button", { name: "Test connection" }))).toBe(false);
  });

  const failures: [string, MarketDataError][] = [
    ["auth", new AuthError("The API key was rejected (HTTP 401).", { status: 401 })],
    ["timeout", new TimeoutError("The market-data service did not answer within 10 s.")],
    ["server", new ServerError("The market-data service failed (HTTP 503).", { status: 503 })],
  ];
  it.each(failures)("a %s failure shows the error's message", async (_kind, error) => {
    const { client } = await renderSettings({ stored: { [SETTING_KEYS.apiKey]: SECRET } });
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    act(() => client.connection.last.reject(error));
    await waitFor(() => expect(connectionResult().textContent).toBe(`Connection failed: ${error.message}`));
  });

  // jsdom's page is http://localhost: the service is on another host, the gateway (/api) on the same one.
  it.each<{ where: string; stored: Record<string, string>; text: string }>([
    {
      where: "a service on another host",
      stored: { [SETTING_KEYS.apiKey]: SECRET },
      text: 'Connection failed: api.example.test is unreachable or not allowed from the add-in (CORS): use the gateway (a base address on the add-in\'s own host, such as /api; see "Deploying for a team" in the README).',
    },
    {
      where: "the gateway on the add-in's host",
      stored: { [SETTING_KEYS.apiKey]: SECRET, [SETTING_KEYS.baseUrl]: "/api" },
      text: "Connection failed: the gateway at http://localhost/api did not answer (is it running?).",
    },
  ])("a network failure (fetch's TypeError) to $where says what a browser can tell", async ({ stored, text }) => {
    const { client } = await renderSettings({ stored });
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    act(() =>
      client.connection.last.reject(new NetworkError("Could not reach the market-data service: Failed to fetch.")),
    );
    await waitFor(() => expect(connectionResult().textContent).toBe(text));
  });

  it("a failure whose text carries the key never shows the key", async () => {
    const { client } = await renderSettings({ stored: { [SETTING_KEYS.apiKey]: SECRET } });
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    act(() =>
      client.connection.last.reject(
        new Error(`GET https://api.example.test/assets/?APIKey=${SECRET} failed for key ${SECRET}`),
      ),
    );
    await waitFor(() => expect(connectionResult().textContent).toMatch(/^Connection failed: /));
    expect(connectionResult().textContent).not.toContain(SECRET);
    expect(connectionResult().textContent).toContain("***");
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it("an edited key is saved before it is tested", async () => {
    const { client, storage } = await renderSettings();
    fireEvent.change(keyInput(), { target: { value: SECRET } });
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    expect(storage.data.get(SETTING_KEYS.apiKey)).toBe(SECRET);
  });

  it("an edited key that fails the test: one message saying it was saved, why the test failed and what to do", async () => {
    const { client, storage } = await renderSettings();
    fireEvent.change(keyInput(), { target: { value: SECRET } });
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    const rejected = new AuthError(
      "The market-data service rejected the API key (HTTP 401). Enter a valid key in the Market Data pane.",
      { status: 401 },
    );
    act(() => client.connection.last.reject(rejected));
    const text = `Key saved, but the connection test failed: ${rejected.message}`;
    await waitFor(() => expect(connectionResult().textContent).toBe(text));
    expect(storage.data.get(SETTING_KEYS.apiKey)).toBe(SECRET);
    // No "saved" notice of its own beside the failure.
    expect(screen.getByTestId("key-notice").textContent).toBe("");
    expect(document.querySelectorAll(".fui-MessageBar")).toHaveLength(1);
    expect(screen.queryByText("API key saved on this computer.")).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it("an edited key that passes the test: one message, saved and connected", async () => {
    const { client } = await renderSettings();
    fireEvent.change(keyInput(), { target: { value: SECRET } });
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    act(() => client.connection.last.resolve({ ok: true, ms: 12 }));
    await waitFor(() => expect(connectionResult().textContent).toBe("Key saved. Connected in 12 ms."));
    expect(document.querySelectorAll(".fui-MessageBar")).toHaveLength(1);
  });

  it("Save key, then a failing test: the earlier “saved” notice gives way to the one result", async () => {
    const { client } = await renderSettings();
    fireEvent.change(keyInput(), { target: { value: SECRET } });
    fireEvent.click(screen.getByRole("button", { name: "Save key" }));
    await screen.findByText("API key saved on this computer.");
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    const down = new ServerError("The market-data service failed (HTTP 503).", { status: 503 });
    act(() => client.connection.last.reject(down));
    await waitFor(() => expect(connectionResult().textContent).toBe(`Connection failed: ${down.message}`));
    expect(screen.queryByText("API key saved on this computer.")).toBeNull();
    expect(document.querySelectorAll(".fui-MessageBar")).toHaveLength(1);
  });
});

describe("Settings view: the key badge says what the service made of the key", () => {
  const badge = () => screen.getByTestId("key-status");

  it("a key the service refuses is badged red, not green; a key it accepts green; a new key is unchecked again", async () => {
    const { client } = await renderSettings({ stored: { [SETTING_KEYS.apiKey]: SECRET } });
    // Not yet tested: the user's key, neither green nor red.
    expect([badge().textContent, badge().getAttribute("data-color")]).toEqual(["Your key", "informative"]);

    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    act(() => client.connection.last.reject(new AuthError("The API key was rejected (HTTP 401).", { status: 401 })));
    await waitFor(() => expect(badge().textContent).toBe("Key refused by the service"));
    expect(badge().getAttribute("data-color")).toBe("danger");

    // Another key, saved by the test: it is checked afresh, and accepted.
    fireEvent.change(keyInput(), { target: { value: `${SECRET}-2` } });
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(2));
    act(() => client.connection.last.resolve({ ok: true, ms: 9 }));
    await waitFor(() =>
      expect([badge().textContent, badge().getAttribute("data-color")]).toEqual(["Your key", "success"]),
    );

    // Saved without a test: unchecked.
    fireEvent.change(keyInput(), { target: { value: `${SECRET}-3` } });
    fireEvent.click(screen.getByRole("button", { name: "Save key" }));
    await screen.findByText("API key saved on this computer.");
    expect([badge().textContent, badge().getAttribute("data-color")]).toEqual(["Your key", "informative"]);
  });

  it("a failure that says nothing of the key (the service down) leaves the key unchecked", async () => {
    const { client } = await renderSettings({ stored: { [SETTING_KEYS.apiKey]: SECRET } });
    fireEvent.click(screen.getByRole("button", { name: "Test connection" }));
    await waitFor(() => expect(client.connection.calls).toHaveLength(1));
    act(() =>
      client.connection.last.reject(new ServerError("The market-data service failed (HTTP 503).", { status: 503 })),
    );
    await screen.findByText(/^Connection failed:/);
    expect([badge().textContent, badge().getAttribute("data-color")]).toEqual(["Your key", "informative"]);
  });
});

describe("Settings view: base URL", () => {
  async function openAdvanced() {
    fireEvent.click(screen.getByRole("button", { name: "Advanced" }));
    return (await screen.findByLabelText("Service address (base URL)", { selector: "input" })) as HTMLInputElement;
  }

  it.each([
    { typed: "https://md.example.com/", saved: "https://md.example.com" },
    { typed: "  http://127.0.0.1:3001///  ", saved: "http://127.0.0.1:3001" },
    { typed: "https://md.example.com/v2", saved: "https://md.example.com/v2" },
    { typed: "/api/", saved: "/api" },
  ])("“$typed” is stored as md.baseUrl “$saved”", async ({ typed, saved }) => {
    const { storage, client } = await renderSettings();
    const input = await openAdvanced();
    fireEvent.change(input, { target: { value: typed } });
    fireEvent.click(screen.getByRole("button", { name: "Save address" }));
    await screen.findByText("Service address saved.");
    expect(storage.writes).toEqual([{ op: "set", key: SETTING_KEYS.baseUrl, value: saved }]);
    expect(screen.getByTestId("effective-base-url").textContent).toBe(saved);
    expect(input.value).toBe(saved);
    expect(client.clears).toBe(1);
  });

  it.each(["md.example.com", "not a url"])(
    "“%s” is not a URL: the browser's own validation stops the save",
    async (typed) => {
      const { storage } = await renderSettings();
      const input = await openAdvanced();
      fireEvent.change(input, { target: { value: typed } });
      expect(input.validity.patternMismatch).toBe(true);
      fireEvent.click(screen.getByRole("button", { name: "Save address" }));
      await act(async () => undefined);
      expect(storage.writes).toEqual([]);
      expect(screen.queryByText("Service address saved.")).toBeNull();
    },
  );

  it.each(["ftp://md.example.com", "javascript:alert(1)", "file:///etc/hosts"])(
    "refuses the non-http address “%s” without writing",
    async (typed) => {
      const { storage } = await renderSettings();
      const input = await openAdvanced();
      fireEvent.change(input, { target: { value: typed } });
      fireEvent.click(screen.getByRole("button", { name: "Save address" }));
      await screen.findByText(/Enter an address that starts with https:\/\//);
      expect(storage.writes).toEqual([]);
    },
  );

  it("“Use default” removes the stored address", async () => {
    const defaults = { apiKey: "", baseUrl: "https://api.example.test" };
    const { storage } = await renderSettings({
      defaults,
      stored: { [SETTING_KEYS.baseUrl]: "https://other.example.com" },
    });
    await openAdvanced();
    expect(screen.getByTestId("effective-base-url").textContent).toBe("https://other.example.com");
    fireEvent.click(screen.getByRole("button", { name: "Use default" }));
    await screen.findByText("Using the default service address.");
    expect(storage.data.has(SETTING_KEYS.baseUrl)).toBe(false);
    expect(screen.getByTestId("effective-base-url").textContent).toBe(defaults.baseUrl);
    expect(isDisabled(screen.getByRole("button", { name: "Use default" }))).toBe(true);
  });
});

describe("Settings view: cache and counters", () => {
  it("renders each counter and polls for new values", async () => {
    const { client } = await renderSettings();
    const values = {
      requests: 1234,
      cacheHits: 56,
      retries: 7,
      failures: 3,
      bytes: 5 * 1024 * 1024 + 300,
      dropped: 4321,
    };
    client.counterValues = values;
    const expected: Record<string, string> = {
      requests: values.requests.toLocaleString("en-US"),
      cacheHits: String(values.cacheHits),
      retries: String(values.retries),
      failures: String(values.failures),
      bytes: formatBytes(values.bytes),
      dropped: "4,321",
    };
    // The panel polls every second; the wait is the harness's (10 s), not a few polls, so a loaded machine passes too.
    await waitFor(() => {
      for (const [key, text] of Object.entries(expected)) {
        expect(within(screen.getByTestId(`counter-${key}`)).getByRole("definition").textContent).toBe(text);
      }
    });
    expect(within(screen.getByTestId("counter-requests")).getByRole("term").textContent).toBe("Requests");
    expect(within(screen.getByTestId("counter-cacheHits")).getByRole("term").textContent).toBe("Cache hits");
    expect(within(screen.getByTestId("counter-dropped")).getByRole("term").textContent).toBe("Points dropped");
  });

  it("“Clear cache” calls client.clear() and confirms", async () => {
    const { client } = await renderSettings();
    fireEvent.click(screen.getByRole("button", { name: "Clear cache" }));
    expect(client.clears).toBe(1);
    expect(screen.getByText("Cache cleared: the next calculation fetches fresh data.")).toBeTruthy();
  });
});

describe("Settings view: storage failure", () => {
  it("reports a storage that cannot be read", async () => {
    const harness = makeHarness();
    harness.storage.getItem = async () => {
      throw new Error("storage is unavailable");
    };
    renderWith(harness, <SettingsView active />);
    await screen.findByText("Could not read the settings: storage is unavailable");
    expect(isDisabled(screen.getByRole("button", { name: "Test connection" }))).toBe(true);
  });
});
