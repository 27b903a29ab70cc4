import { Badge } from "@fluentui/react-components";
import type { StoredSettings } from "../../office/settings";
import { useServices } from "../shared/pane-services";

/** What the key badge says: whose key the requests use. */
function keyStatus(
  stored: StoredSettings | null,
  defaultKey: string,
): { label: string; color: "success" | "warning" | "danger" | "informative" } {
  if (!stored) return { label: "Reading settings…", color: "informative" };
  if (stored.keyManagedByGateway) return { label: "Firm key (gateway)", color: "success" };
  if (!stored.usingDefaultKey) return { label: "Your key", color: "success" };
  return defaultKey ? { label: "Sandbox demo key in use", color: "warning" } : { label: "No API key", color: "danger" };
}

export function KeyStatusBadge({ stored }: { stored: StoredSettings | null }) {
  const { defaults } = useServices();
  const status = keyStatus(stored, defaults.apiKey);
  return (
    <Badge appearance="tint" color={status.color} data-testid="key-status">
      {status.label}
    </Badge>
  );
}
