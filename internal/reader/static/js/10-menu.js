// Phone menu: the button opens the drawer (navigation and outline) over
// the page; Escape, the button again, or following a link closes it.
(function () {
  "use strict";
  var button = document.querySelector(".menu-button");
  var drawer = document.getElementById("drawer");
  if (!button || !drawer) {
    return;
  }
  function set(open) {
    button.setAttribute("aria-expanded", String(open));
    drawer.classList.toggle("open", open);
    document.body.style.overflow = open ? "hidden" : "";
    // What the drawer covers cannot take the focus while it is open.
    document.querySelectorAll("main, footer.site").forEach(function (e) {
      e.inert = open;
    });
    if (open) {
      var current = drawer.querySelector("[aria-current=page]") || drawer.querySelector("a");
      if (current) {
        current.focus();
      }
    }
  }
  button.addEventListener("click", function () {
    set(button.getAttribute("aria-expanded") !== "true");
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && drawer.classList.contains("open")) {
      set(false);
      button.focus();
    }
  });
  drawer.addEventListener("click", function (e) {
    if (e.target.closest("a")) {
      set(false);
    }
  });
  // Back to a wide screen: the drawer is a plain column again.
  window.matchMedia("(min-width: 768px)").addEventListener("change", function (m) {
    if (m.matches) {
      set(false);
    }
  });
})();
