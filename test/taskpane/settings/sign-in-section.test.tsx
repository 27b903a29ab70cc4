/** @jest-environment jsdom */
/**
 * Settings behind a gateway that asks for sign-in: the pane shows who is
 * signed in and a Sign out, or a Sign in while nobody is; the real controller
 * over a stand-in MSAL session. And the plain words on where a pass-through
 * key is kept.
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { AccessTokens } from "../../../src/office/sign-in/access-tokens";
import { SettingsStore } from "../../../src/office/settings";
import { SignInController, type SignInSession, type SignedInUser } from "../../../src/office/sign-in/sign-in";
import { SettingsView } from "../../../src/taskpane/settings/settings-view";
import { makeHarness, MemoryStorage, renderWith } from "../../support/pane-fakes";

const AUTH = { authority: "https://idp.firm.example/realms/md", clientId: "md-addin", scopes: ["md"] };
const ADA: SignedInUser = { name: "Ada Lovelace", username: "ada@firm.example" };

function renderBehindGateway(silentUser: SignedInUser | null, nested = false, renews = true) {
  const harness = makeHarness();
  const settings = new SettingsStore(new MemoryStorage(), { apiKey: "", baseUrl: "/api" }, async () => ({
    keyMode: "firm" as const,
    signIn: AUTH,
  }));
  const tokens = new AccessTokens();
  const session: SignInSession = {
    nested,
    provider: {
      acquireSilent: async () => (renews ? { accessToken: "tok", expiresOn: Date.now() + 3_600_000 } : null),
    },
    trySilent: async () => silentUser,
    signInInteractive: async () => ADA,
    signOut: async () => undefined,
  };
  const signIn = new SignInController(tokens, async () => session);
  const services = { ...harness.services, settings, signIn };
  renderWith({ ...harness, services }, <SettingsView active />);
  return { tokens, signIn };
}

describe("Settings: sign-in", () => {
  it("nobody signed in: a Sign in button; after it, who is signed in and Sign out; Sign out stops the tokens", async () => {
    const { tokens } = renderBehindGateway(null);
    fireEvent.click(await screen.findByRole("button", { name: "Sign in" }));
    expect((await screen.findByTestId("signed-in-user")).textContent).toBe(
      "Signed in as Ada Lovelace (ada@firm.example).",
    );
    screen.getByText("Signed in. Cells that asked you to sign in fill with Refresh all.");
    expect(await tokens.get()).toBe("tok");
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await screen.findByRole("button", { name: "Sign in" });
    expect(await tokens.get()).toBeNull();
    expect(screen.queryByTestId("signed-in-user")).toBeNull();
  });

  it("signed in silently: shows the user at once, with Sign out, and no key to enter", async () => {
    renderBehindGateway(ADA);
    expect((await screen.findByTestId("signed-in-user")).textContent).toContain("Ada Lovelace");
    screen.getByRole("button", { name: "Sign out" });
    screen.getByTestId("key-managed");
    expect(screen.queryByTestId("key-storage-note")).toBeNull();
  });
});

describe("Settings: Office's own account, and a sign-in that expired", () => {
  it("signed in by Office (NAA): Sign out says Market Data forgot the account and Office's own account stays", async () => {
    renderBehindGateway(ADA, true);
    expect((await screen.findByTestId("signed-in-user")).textContent).toContain("your Office account");
    fireEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() =>
      expect(screen.getByTestId("sign-in-notice").textContent).toMatch(
        /Office's own account stays signed in to Office/,
      ),
    );
  });

  it("a renewal that needs the user: Settings says at once the sign-in expired, with Sign in", async () => {
    const { tokens } = renderBehindGateway(ADA, false, false);
    await screen.findByTestId("signed-in-user");
    // The renewal comes from a request, not from the pane: React is told the update it causes is expected.
    await act(() => expect(tokens.get()).rejects.toThrow("Your sign-in expired — sign in again (pane ▸ Settings)"));
    expect((await screen.findByTestId("sign-in-notice")).textContent).toContain(
      "Your sign-in expired — sign in again.",
    );
    screen.getByRole("button", { name: "Sign in" });
  });
});

describe("Settings: where a pass-through key is kept", () => {
  it("says plainly that the key is stored unencrypted on this computer, and for this browser and site on the web", async () => {
    const harness = makeHarness();
    renderWith(harness, <SettingsView active />);
    expect((await screen.findByTestId("key-storage-note")).textContent).toBe(
      "Your key is stored unencrypted on this computer, for this add-in only (in Excel on the web: in this browser, for this site). It is never saved in the workbook.",
    );
    await waitFor(() => expect(screen.queryByRole("button", { name: "Sign in" })).toBeNull());
  });
});
