/**
 * office.js as the browser tests serve it to the pane and to the sign-in dialog's page: Office on Windows without
 * nested app authentication (`Office.context.diagnostics.platform` "PC", NestedAppAuth not supported), whose
 * dialog API opens the page in a window of its own, as Office opens its dialog (Microsoft Learn, *Use the Office
 * dialog API in Office Add-ins*): `displayDialogAsync` calls back with a Dialog, the page's
 * `Office.context.ui.messageParent(message, { targetOrigin })` raises DialogMessageReceived in the pane with the
 * page's origin (DialogOrigin 1.1), and closing the window raises DialogEventReceived 12006 (*Handle errors and
 * events in the Office dialog box*). `onReady` names no host, so the pane runs its functions as in a plain
 * browser (harness/functions-in-page.ts records them).
 */
export const OFFICE_STAND_IN_JS = `
(function () {
  var handlersOf = new WeakMap();
  var Office = {
    EventType: { DialogMessageReceived: "dialogMessageReceived", DialogEventReceived: "dialogEventReceived" },
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    onReady: function (cb) { var info = { host: null, platform: null }; if (cb) cb(info); return Promise.resolve(info); },
    context: {
      diagnostics: { platform: "PC" },
      requirements: { isSetSupported: function (name) { return name === "DialogOrigin"; } },
      ui: {
        displayDialogAsync: function (url, options, callback) {
          var w = window.open(url, "md-office-dialog", "width=500,height=640");
          if (!w) return callback({ status: "failed", error: { code: 12009 } });
          var handlers = {};
          var closedByAddin = false;
          var onMessage = function (event) {
            if (event.source !== w || !event.data || event.data.mdOfficeDialog !== true) return;
            if (handlers.dialogMessageReceived) handlers.dialogMessageReceived({ message: event.data.message, origin: event.origin });
          };
          window.addEventListener("message", onMessage);
          // Office tells the add-in when the user closes the dialog; a browser window says so only when asked.
          var watch = setInterval(function () {
            if (!w.closed) return;
            clearInterval(watch);
            window.removeEventListener("message", onMessage);
            if (!closedByAddin && handlers.dialogEventReceived) handlers.dialogEventReceived({ error: 12006 });
          }, 100);
          callback({ status: "succeeded", value: {
            addEventHandler: function (type, handler) { handlers[type] = handler; },
            close: function () { closedByAddin = true; w.close(); },
          } });
        },
        messageParent: function (message, options) {
          window.opener.postMessage({ mdOfficeDialog: true, message: message }, (options && options.targetOrigin) || "*");
        },
      },
    },
  };
  window.Office = Office;
})();
`;
