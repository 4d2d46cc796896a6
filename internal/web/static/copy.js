// Copy buttons: a button with data-copy="ID" copies the value of the input
// with that id and says so in the element with data-copy-status="ID". The
// buttons are hidden until this script runs; without it the input's text
// is selectable.
"use strict";
for (const button of document.querySelectorAll("button[data-copy]")) {
  const id = button.dataset.copy;
  const input = document.getElementById(id);
  const status = document.querySelector(`[data-copy-status="${id}"]`);
  if (!input) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      if (status) status.textContent = "Copied.";
    } catch {
      if (status) status.textContent = "Select the link and copy it.";
    }
  });
}
for (const input of document.querySelectorAll("input[readonly].invite-url, input[readonly].secret")) {
  input.addEventListener("focus", () => input.select());
}
