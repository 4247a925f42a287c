// The page's style and script, served as files so the Content-Security-Policy allows no inline code.

/** @internal */
export const CSS = `:root{font-family:system-ui,sans-serif;color:#1b1b1b;background:#fafafa}
body{max-width:72rem;margin:0 auto;padding:1rem}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
header{display:flex;gap:1rem;align-items:center;flex-wrap:wrap;border-bottom:1px solid #ccc}
.brand{font-weight:700}.inline{display:inline}
.request{background:#fff;border:1px solid #bbb;border-radius:6px;padding:1rem;margin:1rem 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}dd{margin:0}
pre{background:#f1f1f1;padding:.5rem;overflow:auto;max-height:20rem}
textarea,input{font:inherit;width:100%;max-width:40rem;box-sizing:border-box}
button{font:inherit;padding:.35rem .9rem;margin:.3rem .3rem .3rem 0;cursor:pointer}
.approve{background:#1f6f2c;color:#fff}.reject{background:#9b1c1c;color:#fff}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left}
[role=alert]{border:2px solid #9b1c1c;padding:.5rem;background:#fff}
#feed{font-family:ui-monospace,monospace;font-size:.9rem;max-height:14rem;overflow:auto}`;

/** @internal */
export const JS = `"use strict";
(function () {
  var feed = document.getElementById("feed");
  if (!feed || typeof EventSource === "undefined") return;
  function line(text) {
    var li = document.createElement("li");
    li.textContent = new Date().toLocaleTimeString() + " " + text;
    feed.insertBefore(li, feed.firstChild);
    while (feed.children.length > 50) feed.removeChild(feed.lastChild);
  }
  // Opened after the load event: an event stream opened earlier keeps the page loading for ever.
  function listen() {
    var source = new EventSource("/events");
    ["request", "vote", "decision", "grant"].forEach(function (type) {
      source.addEventListener(type, function (event) {
        try { line(JSON.parse(event.data).summary); } catch (e) { /* a malformed event is skipped */ }
      });
    });
    source.addEventListener("ready", function () { feed.setAttribute("data-ready", "1"); });
  }
  if (document.readyState === "complete") listen();
  else window.addEventListener("load", listen);
})();
`;
