// Copy buttons: a button[data-copy] copies the text of the element whose
// id it names. The buttons are hidden until this script shows them; the
// values stay selectable text without it.
"use strict";
for (const button of document.querySelectorAll("button[data-copy]")) {
  const source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) continue;
  const label = button.textContent;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = "Copied";
    } catch {
      // No clipboard permission: select the text for the user to copy.
      getSelection().selectAllChildren(source);
      button.textContent = "Select and copy";
    }
    setTimeout(() => { button.textContent = label; }, 2000);
  });
}
