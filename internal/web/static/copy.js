// Copy buttons: a button[data-copy="ID"] copies the value of the input, or
// the text of the element, with that id, and says so in the element with
// data-copy-status="ID" when there is one, else on the button itself. The
// buttons are hidden until this script shows them; without it the values
// stay selectable text.
"use strict";
for (const button of document.querySelectorAll("button[data-copy]")) {
  const id = button.dataset.copy;
  const source = document.getElementById(id);
  if (!source || !navigator.clipboard) continue;
  const status = document.querySelector(`[data-copy-status="${id}"]`);
  const label = button.textContent;
  const say = (text) => {
    if (status) {
      status.textContent = text;
      return;
    }
    button.textContent = text;
    setTimeout(() => { button.textContent = label; }, 2000);
  };
  button.hidden = false;
  button.addEventListener("click", async () => {
    const isInput = "value" in source && source.tagName !== "BUTTON";
    if (isInput) source.select();
    try {
      await navigator.clipboard.writeText(isInput ? source.value : source.textContent.trim());
      say(status ? "Copied." : "Copied");
    } catch {
      // No clipboard permission: select the text for the user to copy.
      if (!isInput) getSelection().selectAllChildren(source);
      say(status ? "Select the text and copy it." : "Select and copy");
    }
  });
}
for (const input of document.querySelectorAll("input[readonly].invite-url, input[readonly].secret")) {
  input.addEventListener("focus", () => input.select());
}
