/**
 * The `Office` global as the add-in meets it in Excel: `Office.onReady`,
 * `Office.context.requirements.isSetSupported` against the recorded ExcelApi
 * (https://learn.microsoft.com/en-us/javascript/api/office/office.requirementsetsupport),
 * document settings (settings.ts), `Office.addin`'s start-up behaviour
 * (https://learn.microsoft.com/en-us/javascript/api/office/office.addin:
 * `setStartupBehavior` rejects on a host without SharedRuntime 1.1 when the
 * recording says so; `getStartupBehavior` answers what was set, else what the
 * document was saved with), and the ribbon's events: a command associated
 * through `Office.actions.associate`
 * (https://learn.microsoft.com/en-us/javascript/api/office/office.actions)
 * runs when the test presses it (the handle's `runCommand`), with an event
 * whose `completed()` is observed.
 *
 * The platform (`Office.context.diagnostics.platform`, `Office.onReady`'s
 * `platform`: https://learn.microsoft.com/en-us/javascript/api/office/office.platformtype)
 * is the recording's, "PC" when absent; `Office.addin.onVisibilityModeChanged`
 * (SharedRuntime 1.1: it rejects where `setStartupBehavior` does) reaches the
 * runtime's page (runtime-page.ts), which fires it when the pane is shown.
 *
 * `Office.context.document.addHandlerAsync(Office.EventType.DocumentSelectionChanged, handler)`
 * (https://learn.microsoft.com/en-us/javascript/api/office/office.document#office-office-document-addhandlerasync-member(1),
 * https://learn.microsoft.com/en-us/javascript/api/office/office.documentselectionchangedeventargs):
 * the handler hears each change of the selection (model.ts selectCells) until
 * `removeHandlerAsync(type, { handler })`; the callback gets an AsyncResult.
 */
import { type Model, supports } from "./model";
import { makeDocumentSettings } from "./settings";

const SELECTION_CHANGED = "documentSelectionChanged";

type AsyncCallback = (result: { status: string; error?: { message: string } }) => void;

function asyncResult(ok: boolean, type: string): { status: string; error?: { message: string } } {
  return ok
    ? { status: "succeeded" }
    : { status: "failed", error: { message: `Event type ${type} is not supported.` } };
}

export function makeOffice(m: Model): Record<string, unknown> {
  const { log, recording } = m;
  return {
    HostType: { Excel: "Excel" },
    StartupBehavior: { load: "Load", none: "None" },
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    EventType: { DocumentSelectionChanged: SELECTION_CHANGED },
    onReady: (callback?: (info: unknown) => void) => {
      const info = { host: "Excel", platform: m.page.platform };
      callback?.(info);
      return Promise.resolve(info);
    },
    context: {
      host: "Excel",
      diagnostics: { host: "Excel", platform: m.page.platform },
      requirements: { isSetSupported: (name: string, minVersion?: string) => supports(m, name, minVersion) },
      document: {
        settings: makeDocumentSettings(m),
        addHandlerAsync: (type: string, handler: (args: { type: string }) => void, callback?: AsyncCallback) => {
          const known = type === SELECTION_CHANGED;
          if (known) m.selectionHandlers.add(handler);
          setTimeout(() => callback?.(asyncResult(known, type)), 0);
        },
        removeHandlerAsync: (
          type: string,
          options?: { handler?: (args: { type: string }) => void },
          callback?: AsyncCallback,
        ) => {
          const known = type === SELECTION_CHANGED;
          if (known && options?.handler) m.selectionHandlers.delete(options.handler);
          else if (known) m.selectionHandlers.clear();
          setTimeout(() => callback?.(asyncResult(known, type)), 0);
        },
      },
    },
    addin: {
      setStartupBehavior: async (behavior: string) => {
        if (recording.startupBehaviorFails) throw new Error(recording.startupBehaviorFails);
        log.startupBehavior.push(behavior);
      },
      getStartupBehavior: async () =>
        log.startupBehavior[log.startupBehavior.length - 1] ?? recording.startupBehavior ?? "None",
      onVisibilityModeChanged: async (handler: (message: { visibilityMode: string }) => void) => {
        if (recording.startupBehaviorFails) throw new Error(recording.startupBehaviorFails);
        m.page.visibilityHandlers.add(handler);
        return async () => void m.page.visibilityHandlers.delete(handler);
      },
    },
    actions: {
      associate: (id: string, action: (event: { completed(): void }) => unknown) => {
        log.associated.push(id);
        m.actions.set(id, action);
      },
    },
  };
}

/** Presses a ribbon command the add-in associated; resolves with whether it called `event.completed()`. */
export async function runCommand(m: Model, id: string): Promise<{ completed: boolean }> {
  const action = m.actions.get(id);
  if (!action)
    throw new Error(`No command "${id}" was associated (have: ${[...m.actions.keys()].join(", ") || "none"}).`);
  let completed = false;
  await action({ completed: () => void (completed = true) });
  return { completed };
}
