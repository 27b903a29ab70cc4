/** Whether the add-in loads when the workbook opens (`Office.addin`, SharedRuntime 1.1), in refresh's words. */
import type { StartupBehavior } from "../../refresh/workbook-adapter";

interface OfficeStartup {
  addin: Pick<Office.Addin, "setStartupBehavior"> & Partial<Pick<Office.Addin, "getStartupBehavior">>;
  StartupBehavior: { load: Office.StartupBehavior; none: Office.StartupBehavior };
}

export function setStartupBehavior(office: OfficeStartup, behavior: StartupBehavior): Promise<void> {
  return office.addin.setStartupBehavior(
    behavior === "load" ? office.StartupBehavior.load : office.StartupBehavior.none,
  );
}

/** null where Office cannot say (no getStartupBehavior). */
export async function readStartupBehavior(office: OfficeStartup): Promise<StartupBehavior | null> {
  if (typeof office.addin.getStartupBehavior !== "function") return null;
  const behavior = String(await office.addin.getStartupBehavior());
  return behavior === String(office.StartupBehavior.load) ? "load" : "none";
}
