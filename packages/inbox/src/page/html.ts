import type { InboxGrant, InboxRequest } from "../contract.js";

/** Escapes text for HTML content and quoted attributes. @internal */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The page shell: the script and style are files (the CSP allows no inline code). @internal */
export function layout(title: string, body: string, who?: { name: string; csrf: string }): string {
  const header =
    who === undefined
      ? ""
      : `<p class="who">Signed in as <strong>${esc(who.name)}</strong></p>
<form method="post" action="/logout" class="inline">${csrfField(who.csrf)}<button type="submit">Sign out</button></form>
<nav aria-label="Sections"><a href="/">Pending</a> · <a href="/grants">Grants</a> · <a href="/history">History</a></nav>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · toolware inbox</title><link rel="stylesheet" href="/static/inbox.css">
<script src="/static/inbox.js" defer></script></head>
<body><a class="skip" href="#main">Skip to content</a><header><p class="brand">toolware inbox</p>${header}</header>
<main id="main"><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

export function csrfField(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${esc(csrf)}">`;
}

function ago(ms: number, now: number): string {
  const s = Math.round((now - ms) / 1000);
  if (s < 120) return `${s} s ago`;
  if (s < 7200) return `${Math.round(s / 60)} min ago`;
  return `${Math.round(s / 3600)} h ago`;
}

function until(ms: number, now: number): string {
  const s = Math.round((ms - now) / 1000);
  if (s <= 0) return "passed";
  return s < 120 ? `in ${s} s` : `in ${Math.round(s / 60)} min`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The arguments as the approver sees them: redacted by the server's rules, pretty-printed. @internal */
export function shownInput(r: InboxRequest, show: (value: unknown) => unknown): string {
  return JSON.stringify(show(r.input), null, 2) ?? "null";
}

function facts(r: InboxRequest, now: number): string {
  const rows: [string, string][] = [
    ["Agent", r.labels.agent ?? r.caller],
    ["Task", r.labels.task ?? "—"],
    ["Crew", r.labels.crew ?? "—"],
    ["Caller", r.caller],
    ["Call id", r.binding.callId],
  ];
  const text = rows.map(([k, v]) => `<dt>${k}</dt><dd>${esc(v)}</dd>`).join("");
  return `<dl>${text}<dt>Age</dt><dd><time datetime="${iso(r.createdAt)}">${ago(r.createdAt, now)}</time></dd>
<dt>Deadline</dt><dd><time datetime="${iso(r.deadline)}">${until(r.deadline, now)}</time></dd></dl>`;
}

/** One pending request with its three decisions. @internal */
export function pendingCard(r: InboxRequest, csrf: string, now: number, show: (value: unknown) => unknown): string {
  const h = `h-${r.id}`;
  const hidden = `${csrfField(csrf)}<input type="hidden" name="digest" value="${esc(r.binding.digest)}">`;
  const action = (what: string) => `/requests/${r.id}/${what}`;
  const prompt = r.prompt === undefined ? "" : `<p>${esc(r.prompt)}</p>`;
  const shown = esc(shownInput(r, show));
  const needs = r.requireRole === undefined ? "" : `<p>Needs the role <strong>${esc(r.requireRole)}</strong>.</p>`;
  return `<article class="request" aria-labelledby="${h}" data-id="${esc(r.id)}">
<h3 id="${h}">${esc(r.binding.toolName)}</h3>${prompt}${needs}${facts(r, now)}
<h4>Arguments</h4><pre tabindex="0" aria-label="Arguments of ${esc(r.binding.toolName)}">${shown}</pre>
<form method="post" action="${action("approve")}" class="inline">${hidden}<button type="submit" class="approve">Approve</button></form>
<form method="post" action="${action("reject")}">${hidden}<label for="reason-${r.id}">Reason for rejecting</label>
<input id="reason-${r.id}" name="reason" required maxlength="2000"><button type="submit" class="reject">Reject</button></form>
<details><summary>Edit then approve</summary><form method="post" action="${action("edit")}">${hidden}
<label for="input-${r.id}">Arguments (JSON; redacted values must be typed again)</label>
<textarea id="input-${r.id}" name="input" rows="8" required>${shown}</textarea>
<button type="submit">Approve edited arguments</button></form></details></article>`;
}

/** A settled request in the history table. @internal */
export function historyRow(r: InboxRequest): string {
  const d = r.decision;
  const who = d === undefined ? "" : d.approvers.join(", ") || (d.grantId === undefined ? "system" : "grant");
  return `<tr><td><a href="/requests/${r.id}">${esc(r.binding.toolName)}</a></td><td>${esc(r.caller)}</td>
<td>${esc(r.state)}</td><td>${esc(who)}</td><td>${esc(d?.reason ?? "")}</td>
<td><time datetime="${iso(r.createdAt)}">${iso(r.createdAt)}</time></td></tr>`;
}

/** A grant in force, with its revoke button. @internal */
export function grantRow(g: InboxGrant, csrf: string): string {
  return `<tr><td>${esc(g.toolName)}</td><td><code>${esc(JSON.stringify(g.where))}</code></td><td>${esc(g.grantedBy)}</td>
<td><time datetime="${iso(g.expiresAt)}">${iso(g.expiresAt)}</time></td><td>${esc(g.reason ?? "")}</td>
<td><form method="post" action="/grants/${g.id}/revoke">${csrfField(csrf)}
<button type="submit" aria-label="Revoke the grant for ${esc(g.toolName)}">Revoke</button></form></td></tr>`;
}
