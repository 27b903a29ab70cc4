import { Button, Spinner, Text } from "@fluentui/react-components";
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import type { GatewaySignIn } from "../../office/sign-in/gateway";
import { useServices, type PaneSignIn } from "../shared/pane-services";
import { useSettingsStyles } from "./settings-styles";
import { StatusNotice, type Notice } from "./status-notice";

/**
 * Who is signed in to the firm's gateway, with Sign in and Sign out. Cells
 * never sign in: one waiting for a sign-in reads "Sign in to Market Data
 * (pane ▸ Settings)", and fills on the next Refresh all once this says who is
 * signed in.
 */
export function SignInSection({ config, signIn }: { config: GatewaySignIn; signIn: PaneSignIn }) {
  const styles = useSettingsStyles();
  const { refresh } = useServices();
  const subscribe = useCallback((listener: () => void) => signIn.subscribe(listener), [signIn]);
  const state = useSyncExternalStore(subscribe, () => signIn.state());
  const [notice, setNotice] = useState<Notice>(null);

  useEffect(() => {
    void signIn.configure(config);
  }, [signIn, config]);

  async function onSignIn() {
    setNotice(null);
    await signIn.signIn();
    if (signIn.state().status === "signed-in")
      setNotice({ intent: "success", text: "Signed in. Cells that asked you to sign in fill with Refresh all." });
  }

  async function onSignOut() {
    setNotice(null);
    const before = signIn.state();
    const byOffice = before.status === "signed-in" && before.nested;
    await signIn.signOut();
    setNotice({
      intent: "info",
      text: byOffice
        ? "Signed out of Market Data: it no longer sends requests for you on this computer, and Office's own account stays signed in to Office."
        : "Signed out: Market Data no longer sends requests for you on this computer.",
    });
  }

  const error = state.status === "signed-out" ? state.error : undefined;
  return (
    <>
      {state.status === "starting" && <Spinner size="tiny" label="Checking your sign-in…" />}
      {state.status === "signed-in" ? (
        <>
          <Text data-testid="signed-in-user">
            Signed in as <strong>{state.user.name}</strong>
            {state.user.username && state.user.username !== state.user.name ? ` (${state.user.username})` : ""}
            {state.nested ? ", your Office account." : "."}
          </Text>
          <div className={styles.buttons}>
            <Button onClick={() => void onSignOut()}>Sign out</Button>
            {notice?.intent === "success" && (
              <Button appearance="primary" onClick={() => void refresh.refreshAll()}>
                Refresh all
              </Button>
            )}
          </div>
        </>
      ) : (
        // "off" only until the settings just read reach the controller (the effect above).
        state.status !== "starting" &&
        state.status !== "off" && (
          <>
            <Text>Your firm&apos;s gateway lets in only signed-in people: sign in to fill MD cells.</Text>
            <div className={styles.buttons}>
              <Button appearance="primary" disabled={state.status === "signing-in"} onClick={() => void onSignIn()}>
                Sign in
              </Button>
              {state.status === "signing-in" && <Spinner size="tiny" label="Signing in…" />}
            </div>
          </>
        )
      )}
      <StatusNotice notice={error ? { intent: "error", text: error } : notice} testId="sign-in-notice" />
    </>
  );
}
