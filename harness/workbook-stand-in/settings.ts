/**
 * Document settings: Office.context.document.settings (Office.Settings,
 * https://learn.microsoft.com/en-us/javascript/api/office/office.settings).
 * `get` / `set` / `remove` change the add-in's copy; `saveAsync` stores it
 * with the document (a timer later, as it answers asynchronously) and counts
 * the save. The handle's `settings` is what was last saved.
 *
 * "Office.context.document.settings.saveAsync() disables undo" (office-js
 * #3141): a save clears the undo stack.
 */
import type { Model } from "./model";

export function makeDocumentSettings(m: Model): Record<string, unknown> {
  const { settings, savedSettings, log } = m;
  return {
    get: (name: string) => (name in settings ? settings[name] : null),
    set: (name: string, value: unknown) => void (settings[name] = value),
    remove: (name: string) => void delete settings[name],
    saveAsync: (callback?: (result: { status: string }) => void) => {
      setTimeout(() => {
        for (const name of Object.keys(savedSettings)) if (!(name in settings)) delete savedSettings[name];
        Object.assign(savedSettings, settings);
        log.settingsSaves += 1;
        // "Office.context.document.settings.saveAsync() disables undo" (office-js #3141).
        m.undoStack.length = 0;
        callback?.({ status: "succeeded" });
      }, 0);
    },
  };
}
