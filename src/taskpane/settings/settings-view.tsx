/**
 * Settings: sign-in (behind a gateway that asks for it), the API key (masked, testable), the service address (advanced),
 * the client's cache and counters, and the workbook refresh controls.
 *
 * Settings live in OfficeRuntime.storage through the shared SettingsStore —
 * the same store the custom functions read before every request — so a key
 * saved here applies to the next calculation, and never enters the workbook.
 * The forms only write; the runtime does what follows a change
 * (src/office/settings-changes.ts).
 */
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Caption1,
  Subtitle2,
} from "@fluentui/react-components";
import { useServices } from "../shared/pane-services";
import { RefreshSection } from "../refresh/refresh-section";
import { CountersPanel } from "./counters-panel";
import { useState } from "react";
import type { KeyVerdict } from "./connection-test";
import { KeyForm } from "./key-form";
import { KeyStatusBadge } from "./key-status";
import { ServiceAddressForm } from "./service-address-form";
import { SignInSection } from "./sign-in-section";
import { useSettingsStyles } from "./settings-styles";
import { useStoredSettings } from "./use-stored-settings";

export function SettingsView({ active }: { active: boolean }) {
  const styles = useSettingsStyles();
  const { defaults, signIn } = useServices();
  const { stored, reload, readError } = useStoredSettings();
  // What the last connection test found of the user's key, kept with the key it was made with.
  const [checked, setChecked] = useState<{ apiKey: string; verdict: KeyVerdict } | null>(null);
  const verdict =
    checked && stored && !stored.usingDefaultKey && checked.apiKey === stored.apiKey ? checked.verdict : null;

  return (
    <div className={styles.root}>
      {stored?.signIn && signIn && (
        <section className={styles.section} aria-labelledby="settings-sign-in-heading">
          <Subtitle2 as="h2" id="settings-sign-in-heading" className={styles.heading}>
            Sign-in
          </Subtitle2>
          <SignInSection config={stored.signIn} signIn={signIn} />
        </section>
      )}

      <section className={styles.section} aria-labelledby="settings-key-heading">
        <Subtitle2 as="h2" id="settings-key-heading" className={styles.heading}>
          API key
          <KeyStatusBadge stored={stored} verdict={verdict} />
        </Subtitle2>
        {stored?.usingDefaultKey && defaults.apiKey && (
          <Caption1>
            Requests use the sandbox&apos;s public demo key until you save your own. It only works against the sandbox.
          </Caption1>
        )}
        <KeyForm
          stored={stored}
          reload={reload}
          readError={readError}
          onKeyVerdict={(apiKey, found) => setChecked({ apiKey, verdict: found })}
        />
        {stored && !stored.keyManagedByGateway && (
          <Caption1 data-testid="key-storage-note">
            Your key is stored unencrypted on this computer, for this add-in only (in Excel on the web: in this browser,
            for this site). It is never saved in the workbook.
          </Caption1>
        )}
      </section>

      <section className={styles.section} aria-labelledby="settings-cache-heading">
        <Subtitle2 as="h2" id="settings-cache-heading" className={styles.heading}>
          Cache and requests
        </Subtitle2>
        <CountersPanel active={active} />
      </section>

      <section className={styles.section} aria-labelledby="settings-refresh-heading">
        <Subtitle2 as="h2" id="settings-refresh-heading" className={styles.heading}>
          Refresh
        </Subtitle2>
        <RefreshSection />
      </section>

      <Accordion collapsible>
        <AccordionItem value="advanced">
          <AccordionHeader as="h2">Advanced</AccordionHeader>
          <AccordionPanel>
            <ServiceAddressForm stored={stored} reload={reload} />
          </AccordionPanel>
        </AccordionItem>
      </Accordion>
    </div>
  );
}
