// Phone menu: the button opens the drawer (navigation and outline) over
// the whole viewport under the header; the page behind is hidden. While
// it is open the focus stays in the drawer and on the button (Tab wraps
// around); Escape, the button again, or following a link closes it.
(function () {
  "use strict";
  var button = document.querySelector(".menu-button");
  var drawer = document.getElementById("drawer");
  if (!button || !drawer) {
    return;
  }
  // Everything but the button and the drawer: out of reach while open.
  var outside = "main, footer.site, .tabs-bar, .skip-link, header.site > :not(.menu-button)";
  function isOpen() {
    return drawer.classList.contains("open");
  }
  function set(open) {
    button.setAttribute("aria-expanded", String(open));
    drawer.classList.toggle("open", open);
    document.body.classList.toggle("menu-open", open);
    document.querySelectorAll(outside).forEach(function (e) {
      e.inert = open;
    });
    if (open) {
      drawer.scrollTop = 0;
      var current = drawer.querySelector("[aria-current=page]") || drawer.querySelector("a");
      if (current) {
        current.focus();
      }
    }
  }
  // The button, then what can take the focus in the drawer and is shown.
  function stops() {
    var all = [button];
    drawer.querySelectorAll("a[href], button, summary, input, [tabindex]").forEach(function (e) {
      if (e.tabIndex >= 0 && e.getClientRects().length > 0) {
        all.push(e);
      }
    });
    return all;
  }
  button.addEventListener("click", function () {
    set(!isOpen());
  });
  document.addEventListener("keydown", function (e) {
    if (!isOpen()) {
      return;
    }
    if (e.key === "Escape") {
      set(false);
      button.focus();
    } else if (e.key === "Tab") {
      var all = stops();
      var at = all.indexOf(document.activeElement);
      var next = null;
      if (at < 0) {
        next = all[0];
      } else if (e.shiftKey && at === 0) {
        next = all[all.length - 1];
      } else if (!e.shiftKey && at === all.length - 1) {
        next = all[0];
      }
      if (next) {
        e.preventDefault();
        next.focus();
      }
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
