import { Badge } from "@fluentui/react-components";
import type { StoredSettings } from "../../office/settings";
import { useServices } from "../shared/pane-services";
import type { KeyVerdict } from "./connection-test";

/**
 * What the key badge says: whose key the requests use, and for the user's own
 * key what the service made of it: green once a connection test got through
 * with it, red once the service refused it, neutral until one is made.
 */
export function keyStatus(
  stored: StoredSettings | null,
  defaultKey: string,
  verdict: KeyVerdict | null = null,
): { label: string; color: "success" | "warning" | "danger" | "informative" } {
  if (!stored) return { label: "Reading settings…", color: "informative" };
  if (stored.keyManagedByGateway) return { label: "Firm key (gateway)", color: "success" };
  if (!stored.usingDefaultKey) {
    if (verdict === "refused") return { label: "Key refused by the service", color: "danger" };
    return { label: "Your key", color: verdict === "accepted" ? "success" : "informative" };
  }
  return defaultKey ? { label: "Sandbox demo key in use", color: "warning" } : { label: "No API key", color: "danger" };
}

/** `verdict`: what the last connection test found of the stored key, if one was made with it. */
export function KeyStatusBadge({ stored, verdict }: { stored: StoredSettings | null; verdict?: KeyVerdict | null }) {
  const { defaults } = useServices();
  const status = keyStatus(stored, defaults.apiKey, verdict);
  return (
    <Badge appearance="tint" color={status.color} data-testid="key-status" data-color={status.color}>
      {status.label}
    </Badge>
  );
}
