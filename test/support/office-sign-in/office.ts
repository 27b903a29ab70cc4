/**
 * Office's sign-in surfaces, as Microsoft documents them, for tests of the
 * pane's sign-in outside Office: what `Office.context.requirements` says of
 * nested app authentication, Office's NAA broker (what MSAL's nestable client
 * talks to), `Office.auth.getAuthContext()`, and the dialog API
 * (`displayDialogAsync`, `messageParent`, `DialogMessageReceived`,
 * `DialogEventReceived`). Only real Office answers for sure: the manual steps
 * are in docs/excel-checklist.md ("Sign-in the way Office does it").
 */
import {
  AuthError,
  BrowserAuthError,
  ClientAuthError,
  InteractionRequiredAuthError,
  ServerError,
  type AccountInfo,
  type AuthenticationResult,
  type Configuration,
  type IPublicClientApplication,
} from "@azure/msal-browser";

/** Office's platforms as `Office.context.diagnostics.platform` names them (Office.PlatformType). */
export type OfficePlatform = "PC" | "Mac" | "OfficeOnline" | "iOS";

export interface OfficeHostOptions {
  platform: OfficePlatform;
  /**
   * Whether the host declares NestedAppAuth 1.1. Microsoft Learn, *Nested app auth requirement set*
   * (https://learn.microsoft.com/office/dev/add-ins/reference/requirement-sets/common/nested-app-auth-requirement-sets):
   * an add-in checks `Office.context.requirements.isSetSupported("NestedAppAuth", "1.1")`.
   */
  nestedAppAuth: boolean;
  /** What `Office.auth.getAuthContext()` gives (Excel on the web: the signed-in user); null: it rejects. */
  authContext?: Partial<OfficeAuthContext> | null;
  /** What the dialog page does when Office opens it (see `officeDialogs`). */
  dialog?: DialogScript;
}

/**
 * Office.AuthContext (Microsoft Learn, https://learn.microsoft.com/javascript/api/office/office.authcontext):
 * "Represents the user information which can be passed to msal.js": authorityBaseUrl, authorityType
 * ("aad" | "msa" | "other"), loginHint ("An optional claim that provides a hint about the user account attempting
 * to sign in"), tenantId, userObjectId, userPrincipalName. Requirement set NestedAppAuth 1.1.
 */
export interface OfficeAuthContext {
  authorityBaseUrl: string;
  authorityType: "aad" | "msa" | "other";
  loginHint: string;
  tenantId: string;
  userObjectId: string;
  userPrincipalName: string;
}

/**
 * What happens once Office shows the dialog page, from Microsoft Learn, *Handle errors and events in the Office
 * dialog box* (https://learn.microsoft.com/office/dev/add-ins/develop/dialog-handle-errors-events):
 * - `{ open: 12007 }` etc.: displayDialogAsync fails, no dialog. "12007 A dialog box is already opened from this host
 *   window"; "12009 The user chose to ignore the dialog box. This error can occur in Office on the web, where users
 *   may choose not to allow an add-in to present a dialog box"; "12011 … the user's browser configuration is
 *   blocking popups".
 * - `{ message, origin }`: the page calls `Office.context.ui.messageParent(message)`; the parent's
 *   DialogMessageReceived handler gets `{ message, origin }` (origin: DialogOrigin 1.1, Office.DialogMessageOptions).
 * - `{ event: 12006 }`: DialogEventReceived, "12006 The dialog box was closed, usually because the user chose the
 *   Close button X"; `{ event: 12002 }`: "The dialog box has been directed to a page that it can't find or load".
 * - `{ never: true }`: the page says nothing (the user has not finished).
 */
export type DialogStep =
  | { open: 12004 | 12005 | 12007 | 12009 | 12011 }
  | { message: string; origin: string }
  | { event: 12002 | 12003 | 12006 }
  | { never: true };

/** The dialog page's behaviour: given the URL Office opens, what it does (several steps: one after the other). */
export type DialogScript = (url: string) => DialogStep | DialogStep[] | Promise<DialogStep | DialogStep[]>;

type Handler = (args: { message?: string; origin?: string; error?: number; type?: string }) => void;

export interface OfficeDialogsRecord {
  /** Every URL displayDialogAsync was asked to open. */
  opened: string[];
  /** Dialogs the add-in closed (dialog.close()). */
  closed: number;
}

/** Office.context.ui.displayDialogAsync over a script, as Office calls back (AsyncResult, then events). */
export function officeDialogs(script: DialogScript = () => ({ never: true })) {
  const record: OfficeDialogsRecord = { opened: [], closed: 0 };
  let open = false;
  function displayDialogAsync(
    url: string,
    _options: unknown,
    callback: (result: {
      status: "succeeded" | "failed";
      value?: unknown;
      error?: { code: number; message: string };
    }) => void,
  ): void {
    record.opened.push(url);
    if (open) {
      callback({ status: "failed", error: { code: 12007, message: "A dialog box is already opened." } });
      return;
    }
    void Promise.resolve(script(url)).then((steps) => {
      const [step, ...later] = Array.isArray(steps) ? steps : [steps];
      if (!step) return;
      if ("open" in step) {
        callback({ status: "failed", error: { code: step.open, message: `Office error ${step.open}` } });
        return;
      }
      open = true;
      const handlers = new Map<string, Handler>();
      const dialog = {
        addEventHandler: (type: string, handler: Handler) => void handlers.set(type, handler),
        close: () => {
          open = false;
          record.closed += 1;
        },
      };
      callback({ status: "succeeded", value: dialog });
      // The page runs after Office returned the dialog: each message or event arrives in a later task.
      const run = (next: DialogStep[]) => {
        const [now, ...rest] = next;
        if (!now || !open) return;
        if ("message" in now) handlers.get("dialogMessageReceived")?.({ message: now.message, origin: now.origin });
        else if ("event" in now) {
          open = false;
          handlers.get("dialogEventReceived")?.({ error: now.event });
        }
        setTimeout(() => run(rest), 0);
      };
      setTimeout(() => run([step, ...later]), 0);
    });
  }
  return { displayDialogAsync, record };
}

/** The `globalThis` of a page in Office (or, `officeHost(null)`, a plain browser with office.js and no host). */
export function officeHost(options: OfficeHostOptions | null) {
  const dialogs = officeDialogs(options?.dialog);
  if (!options) return { globals: { Office: { context: {} } }, dialogs };
  const context = options.authContext === undefined ? null : options.authContext;
  const Office = {
    EventType: { DialogMessageReceived: "dialogMessageReceived", DialogEventReceived: "dialogEventReceived" },
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    context: {
      diagnostics: { platform: options.platform },
      requirements: {
        isSetSupported: (name: string, version?: string) =>
          name === "NestedAppAuth" && options.nestedAppAuth && (version === undefined || Number(version) <= 1.1),
      },
      ui: { displayDialogAsync: dialogs.displayDialogAsync },
    },
    auth: {
      getAuthContext: async (): Promise<OfficeAuthContext> => {
        if (!context) throw Object.assign(new Error("getAuthContext is not available"), { code: 13000 });
        return {
          authorityBaseUrl: "https://login.microsoftonline.com",
          authorityType: "aad",
          loginHint: "",
          tenantId: "",
          userObjectId: "",
          userPrincipalName: "",
          ...context,
        };
      },
    },
  };
  return { globals: { Office }, dialogs };
}

/** Who Office has signed in, and the tokens its broker gives for an add-in's client id. */
export interface BrokerAccount {
  username: string;
  name: string;
  tenantId: string;
  /** Office's account is a Microsoft account (consumers) rather than a work or school one. */
  msa?: boolean;
}

export interface NaaBrokerRecord {
  calls: string[];
}

const ENTRA_WORKFORCE = /^https:\/\/login\.microsoftonline\.(com|us)\/[^/]+/i;

/**
 * Office's NAA broker, as MSAL's nestable client reaches it (createNestablePublicClientApplication with Office's
 * bridge present). Microsoft Learn, *Enable SSO in an Office Add-in using nested app authentication*
 * (https://learn.microsoft.com/office/dev/add-ins/develop/enable-nested-app-authentication-in-your-add-in): "NAA
 * supports both Microsoft Accounts and Microsoft Entra ID (work/school) identities. It doesn't support Azure Active
 * Directory B2C". So a request for any other authority (Keycloak, Okta, B2C) fails in Office's Microsoft broker,
 * which MSAL's NAA adapter turns into a ServerError (BridgeStatusCode PERSISTENT_ERROR → ServerError, msal-browser
 * webBrokerBridge/WebBrokerBridgeErrorMap). The NAA method table (same page, "MSAL.js APIs supported by NAA")
 * lists clearCache, loginRedirect and logout as "No (throws exception)": here they throw MSAL's
 * `unsupported_method`. `cancel`: the user closes Office's own prompt (ClientAuthError `user_canceled`). `web`:
 * Excel on the web, where "you must provide a login hint to MSAL" (same page, "Use the login hint in Office on the
 * web"): a silent request naming neither an account nor a hint needs the user.
 */
/**
 * `popupBlocked`: Office cannot open the broker's sign-in window (a pop-up blocker on the web), which MSAL reports
 * as a BrowserAuthError `popup_window_error` (PopupClient: a window.open that gives no window is `empty_window_error`,
 * rethrown as `popup_window_error`); Microsoft's NAA sample handles exactly that code.
 */
export function naaBroker(
  account: BrokerAccount | null,
  issue: (scopes: string[]) => string,
  cancel = false,
  web = false,
  popupBlocked = false,
) {
  const record: NaaBrokerRecord = { calls: [] };
  const info = (): AccountInfo | null =>
    account
      ? {
          homeAccountId: `${account.username}.${account.tenantId}`,
          environment: "login.microsoftonline.com",
          tenantId: account.tenantId,
          username: account.username,
          localAccountId: account.username,
          name: account.name,
        }
      : null;
  const unsupported = (method: string) => () => {
    record.calls.push(method);
    throw new AuthError("unsupported_method", "c", `${method} is not supported under nested app authentication`);
  };
  const make = async (configuration: Configuration): Promise<IPublicClientApplication> => {
    const authority = configuration.auth.authority ?? "";
    const consumers = /\/(consumers|common)(\/|$)/i.test(authority);
    const refuse = () => {
      if (!ENTRA_WORKFORCE.test(authority) || (account?.msa && !consumers))
        throw new ServerError("invalid_request", "c", `AADSTS90002: Tenant for ${authority} not found.`);
    };
    const result = (scopes: string[]): AuthenticationResult => ({
      authority,
      uniqueId: account!.username,
      tenantId: account!.tenantId,
      scopes,
      account: info()!,
      idToken: "",
      idTokenClaims: {},
      accessToken: issue(scopes),
      fromCache: false,
      expiresOn: new Date(Date.now() + 3_600_000),
      tokenType: "Bearer",
      correlationId: "naa",
    });
    let active: AccountInfo | null = null;
    const app = {
      initialize: async () => undefined,
      getActiveAccount: () => active,
      setActiveAccount: (a: AccountInfo | null) => void (active = a),
      getAllAccounts: () => [],
      getAccount: () => null,
      acquireTokenSilent: async ({ scopes, account: who }: { scopes: string[]; account?: AccountInfo }) => {
        record.calls.push("nested acquireTokenSilent");
        refuse();
        if (!account || (web && !who))
          throw new InteractionRequiredAuthError("interaction_required", "c", "No account in Office.");
        return result(scopes);
      },
      ssoSilent: async ({ scopes, loginHint }: { scopes: string[]; loginHint?: string }) => {
        record.calls.push(`nested ssoSilent ${loginHint ?? ""}`.trim());
        refuse();
        if (!account || (loginHint && loginHint !== account.username))
          throw new InteractionRequiredAuthError("interaction_required", "c", "No account for this hint.");
        return result(scopes);
      },
      acquireTokenPopup: async ({ scopes }: { scopes: string[] }) => {
        record.calls.push("nested acquireTokenPopup");
        refuse();
        if (popupBlocked) throw new BrowserAuthError("popup_window_error", "Error opening popup window.");
        if (cancel || !account) throw new ClientAuthError("user_canceled", "naa");
        return result(scopes);
      },
      loginPopup: unsupported("loginPopup"),
      loginRedirect: unsupported("loginRedirect"),
      clearCache: unsupported("clearCache"),
      logout: unsupported("logout"),
    };
    return app as unknown as IPublicClientApplication;
  };
  return { make, record };
}
