// The PDF export page: while the PDF is being made, asks for its state
// every two seconds and shows it, then the download link. Without it the
// page's "Check again" link does the same by hand.
"use strict";
(function () {
  const box = document.getElementById("pdf");
  if (!box || box.dataset.status !== "pending") return;
  const message = document.getElementById("pdf-message");
  const progress = document.getElementById("pdf-progress");
  const again = document.getElementById("pdf-again");
  const download = document.getElementById("pdf-download");
  const start = document.getElementById("pdf-start");
  again.hidden = true;

  async function poll() {
    let state;
    try {
      const res = await fetch(box.dataset.statusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
      state = await res.json();
      if (!res.ok) state = { status: "failed", message: (state.error && state.error.message) || "The state of the PDF could not be read." };
    } catch (e) {
      setTimeout(poll, 5000); // offline for a moment: try again later
      return;
    }
    box.dataset.status = state.status;
    if (message.textContent !== state.message) message.textContent = state.message;
    if (state.status === "pending") {
      setTimeout(poll, 2000);
      return;
    }
    progress.hidden = true;
    if (state.status === "done") {
      const a = download.querySelector("a");
      a.href = state.download;
      document.getElementById("pdf-size").textContent = state.size || "";
      download.hidden = false;
      a.focus();
    } else {
      start.querySelector("button").textContent = "Try again";
      start.hidden = false;
    }
  }
  setTimeout(poll, 1000);
})();
