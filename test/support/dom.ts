/**
 * What jsdom lacks and the pane touches: matchMedia (theme), ResizeObserver and
 * element sizes (the virtualised asset list measures its scroll box and renders
 * nothing at height 0), scrolling, and the async clipboard.
 */

/** The asset list's scroll box height in the pane's CSS; the virtualiser sizes its window from it. */
export const LISTBOX_HEIGHT = 264;
export const LISTBOX_WIDTH = 320;

/** A matchMedia whose queries match when `matches(query)` says so; change events never fire. */
export function matchMediaWhere(matches: (query: string) => boolean): typeof window.matchMedia {
  return (query: string) =>
    ({
      matches: matches(query),
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

let installed = false;

export function installDomStubs(): void {
  if (installed) return;
  installed = true;

  if (typeof window.matchMedia !== "function") window.matchMedia = matchMediaWhere(() => false);

  if (typeof (window as { ResizeObserver?: unknown }).ResizeObserver !== "function") {
    class NoopResizeObserver {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    }
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = NoopResizeObserver;
  }

  // Only listboxes get a size: the virtualiser reads clientHeight/Width of its scroll element.
  const sized = (extent: number) =>
    function (this: HTMLElement) {
      return this.getAttribute("role") === "listbox" ? extent : 0;
    };
  Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: sized(LISTBOX_HEIGHT) });
  Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: sized(LISTBOX_WIDTH) });

  if (!Element.prototype.scrollTo) Element.prototype.scrollTo = function () {} as Element["scrollTo"];
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = function () {};

  if (!navigator.clipboard) {
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: async () => undefined, readText: async () => "" },
    });
  }
}
