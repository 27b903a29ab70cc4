/* global document, window, URL, setTimeout */
/*
 * The pane's own check that office.js loaded: a plain script run just before
 * the office.js tag, needing nothing else (no Office, no React, no bundle).
 * When the browser reports that office.js failed (blocked, offline, refused),
 * or it has not arrived after 8 seconds, the pane's "Loading Market Data…" line
 * becomes a plain-text reason naming the address and host office.js comes
 * from, instead of loading forever. The production build loads it from
 * Microsoft's CDN (appsforoffice.microsoft.com); development and test builds
 * from their own server. An office.js that arrives late still wins: the
 * message goes and the pane starts.
 */
(function () {
  var WAIT_MS = 8000;
  var me = document.currentScript;
  var officeJs = me && me.getAttribute("data-office-js");
  if (!officeJs) return;
  var url = new URL(officeJs, document.baseURI).href;
  var host = new URL(url).host;
  var message = null;

  function isOfficeJs(target) {
    return !!target && target.tagName === "SCRIPT" && target.src === url;
  }

  /** Puts the message (or, with null, the loading line back) where the pane shows it. */
  function render() {
    var boot = document.getElementById("boot");
    var early = document.getElementById("office-js-failure");
    if (early && (boot || !message)) {
      early.parentNode.removeChild(early);
      early = null;
    }
    if (!boot && message) {
      // office.js is still being fetched: the page below its tag is not parsed yet.
      if (!early) {
        early = document.createElement("p");
        early.id = "office-js-failure";
        document.documentElement.appendChild(early);
      }
      boot = early;
    }
    if (!boot) return;
    if (message) {
      boot.setAttribute("role", "alert");
      boot.setAttribute("data-office-js-failed", "");
      boot.textContent = message;
    } else if (boot.hasAttribute("data-office-js-failed")) {
      boot.removeAttribute("role");
      boot.removeAttribute("data-office-js-failed");
      boot.textContent = "Loading Market Data\u2026";
    }
  }

  function fail(reason) {
    message =
      "Market Data cannot start: Microsoft's Office JavaScript library (office.js) " +
      reason +
      " from " +
      url +
      ". This computer must be able to reach " +
      host +
      " over HTTPS. If a firewall, proxy or content filter blocks it, ask your IT department to allow " +
      host +
      ", then close and reopen the Market Data pane.";
    render();
  }

  window.addEventListener(
    "error",
    function (event) {
      if (isOfficeJs(event.target)) fail("could not be loaded");
    },
    true,
  );
  // An element's load event stops at the document (it never reaches the window).
  document.addEventListener(
    "load",
    function (event) {
      if (!isOfficeJs(event.target)) return;
      message = null;
      render();
    },
    true,
  );
  document.addEventListener("DOMContentLoaded", render);
  setTimeout(function () {
    if (typeof Office === "undefined" && !message) fail("has not loaded after " + WAIT_MS / 1000 + " seconds");
  }, WAIT_MS);
})();
