// The edit view: mounts the editor (internal/editor) on the page's
// document and saves it as JSON with the session's CSRF token. Loaded
// deferred after the editor's script; no inline script (CSP).
"use strict";
(function () {
  const mount = document.getElementById("editor");
  if (!mount || typeof FolioEditor === "undefined") return;
  const d = mount.dataset;
  const status = document.getElementById("editor-status");
  const save = document.getElementById("editor-save");
  const bar = document.getElementById("editor-bar");
  let dirty = false;
  let saving = false;
  // The URLs of the files the document shows, and of those uploaded since.
  const fileURLs = JSON.parse(d.files || "{}");

  // uploadFile posts a pasted, dropped or picked image to the space's files
  // (or the change request's) and answers the reference the editor inserts.
  async function uploadFile(file) {
    say("Uploading " + (file.name || "the image") + "…");
    const res = await fetch(d.upload + "?name=" + encodeURIComponent(file.name || ""), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": file.type || "application/octet-stream", Accept: "application/json", "X-CSRF-Token": d.csrf },
      body: file,
    });
    let body = null;
    try {
      body = await res.json();
    } catch (e) {
      body = null;
    }
    if (!res.ok || !body || !body.ref) {
      const msg = body && body.error ? body.error.message : "the upload failed (" + res.status + ").";
      say("Image not added: " + msg, "error");
      throw new Error(msg);
    }
    fileURLs[body.ref.file] = body.url;
    say("Image added: save to keep it in the page.", "ok");
    return body.ref;
  }

  const editor = FolioEditor.mount(mount, {
    document: JSON.parse(d.document),
    pages: JSON.parse(d.pages || "[]"),
    label: d.label,
    uploadFile: d.upload ? uploadFile : undefined,
    fileURL: (id) => fileURLs[id] || "",
    onChange: () => {
      dirty = true;
      status.textContent = "";
    },
  });
  window.folioEditor = editor; // for the browser tests and the console
  document.getElementById("editor-nojs").hidden = true;
  bar.hidden = false;

  function say(text, kind) {
    status.textContent = text;
    status.className = "edit-status" + (kind ? " edit-status-" + kind : "");
  }

  save.addEventListener("click", async () => {
    if (saving) return;
    saving = true;
    save.disabled = true;
    say("Saving…");
    try {
      const res = await fetch(d.save, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": d.csrf },
        body: JSON.stringify({ document: editor.getDocument(), since: d.since }),
      });
      let body = null;
      try {
        body = await res.json();
      } catch (e) {
        body = null;
      }
      if (res.ok) {
        dirty = false;
        say("Saved.", "ok");
        window.location.assign((body && body.location) || d.done);
        return;
      }
      const msg = body && body.error ? body.error.message : "Saving failed (" + res.status + ").";
      if (res.status === 409) {
        say("Not saved: " + msg + " Your text is still here: copy what you need before reloading.", "error");
      } else {
        say("Not saved: " + msg, "error");
      }
    } catch (e) {
      say("Not saved: the server could not be reached. Your text is still here; try again.", "error");
    }
    saving = false;
    save.disabled = false;
  });

  window.addEventListener("beforeunload", (e) => {
    if (dirty && !saving) e.preventDefault();
  });
  editor.focus();
})();
