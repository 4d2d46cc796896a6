// Test harness: records CSP violations and errors, then mounts the editor
// on the document in #doc. Served by browser_test.go.
window.violations = [];
window.errors = [];
document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.violatedDirective + " " + e.blockedURI + " " + e.sourceFile + ":" + e.lineNumber));
window.addEventListener("error", (e) => window.errors.push(String(e.message)));
window.changes = 0;
window.uploads = [];
const doc = JSON.parse(document.getElementById("doc").textContent);
window.editor = FolioEditor.mount(document.getElementById("editor"), {
  document: doc,
  onChange: () => window.changes++,
  uploadFile: (file) => {
    window.uploads.push(file.name);
    return Promise.resolve({ kind: "file", file: "up-" + file.name.replace(/\W/g, "") });
  },
  fileURL: (id) => "/files/" + id + ".png",
  pages: [{ id: "pg1", title: "Getting started" }],
});
window.mounted = true;
