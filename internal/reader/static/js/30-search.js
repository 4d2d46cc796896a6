// Search dialog: "/", Ctrl-K or Cmd-K, or the header's search box opens
// it; results come as the reader types (~/search.json, the same search
// as the results page, scoped to what the visitor may see), grouped by
// page with the matching sections under it. Arrows move, Enter opens,
// Escape closes. Without this file the box submits to the results page.
(function () {
  "use strict";
  var form = document.querySelector("form.search");
  if (!form || !form.dataset.endpoint || !window.HTMLDialogElement) {
    return;
  }
  var strings = document.body.dataset;
  var box = form.querySelector("input[name=q]");
  var dialog, input, list, status, all, opener, timer, pending, active = -1, options = [];

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) {
      e.className = cls;
    }
    if (text) {
      e.textContent = text;
    }
    return e;
  }

  function build() {
    dialog = el("dialog", "search-dialog");
    dialog.setAttribute("aria-label", strings.search);
    var field = el("div", "search-field");
    var glass = form.querySelector(".search-icon");
    if (glass) {
      field.appendChild(glass.cloneNode(true));
    }
    input = el("input");
    input.type = "search";
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-label", strings.searchLabel);
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", "search-results");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("autocomplete", "off");
    input.setAttribute("maxlength", "512");
    input.placeholder = box.placeholder;
    var close = el("button", "close", strings.searchClose);
    close.type = "button";
    close.addEventListener("click", function () { dialog.close(); });
    field.append(input, close);
    list = el("div", "results");
    list.id = "search-results";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", strings.search);
    status = el("p", "status");
    status.setAttribute("role", "status");
    all = el("a", "status", strings.searchAll);
    all.hidden = true;
    dialog.append(field, status, list, all);
    document.body.appendChild(dialog);

    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(run, 120);
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        if (options.length) {
          move(active + (e.key === "ArrowDown" ? 1 : -1));
        }
      } else if (e.key === "Enter") {
        e.preventDefault();
        if (active >= 0 && options[active]) {
          location.href = options[active].href;
        } else if (input.value.trim()) {
          location.href = form.action + "?q=" + encodeURIComponent(input.value.trim());
        }
      }
    });
    list.addEventListener("mousemove", function (e) {
      var o = e.target.closest("[role=option]");
      if (o && options.indexOf(o) !== active) {
        move(options.indexOf(o));
      }
    });
    dialog.addEventListener("close", function () {
      document.body.style.overflow = "";
      if (opener) {
        opener.focus();
      }
    });
    dialog.addEventListener("click", function (e) {
      if (e.target === dialog) {
        dialog.close(); // a click on the backdrop
      }
    });
  }

  function move(i) {
    active = (i + options.length) % options.length;
    options.forEach(function (o, j) { o.setAttribute("aria-selected", String(j === active)); });
    input.setAttribute("aria-activedescendant", options[active].id);
    options[active].scrollIntoView({block: "nearest"});
  }

  function spans(parent, list) {
    (list || []).forEach(function (s) {
      parent.appendChild(s.Match ? el("mark", "", s.Text) : document.createTextNode(s.Text));
    });
  }

  function show(data, query) {
    list.replaceChildren();
    options = [];
    active = -1;
    input.removeAttribute("aria-activedescendant");
    data.results.forEach(function (r, i) {
      var group = el("div", "group");
      group.setAttribute("role", "group");
      var label = el("div", "group-label", r.space ? r.space + " › " + (r.trail || r.title) : (r.trail || r.title));
      label.id = "search-group-" + i;
      group.setAttribute("aria-labelledby", label.id);
      group.appendChild(label);
      var add = function (href, title, text) {
        var o = el("a");
        o.href = href;
        o.id = "search-option-" + options.length;
        o.setAttribute("role", "option");
        o.setAttribute("aria-selected", "false");
        o.tabIndex = -1;
        o.appendChild(el("span", "hit-title", title));
        if (text) {
          var t = el("span", "hit-text");
          spans(t, text);
          o.appendChild(t);
        }
        group.appendChild(o);
        options.push(o);
      };
      var first = r.sections && r.sections[0];
      add(r.href, r.title, first && !first.title ? first.spans : null);
      (r.sections || []).forEach(function (s) {
        if (s.title) {
          add(s.href, s.title, s.spans);
        }
      });
      list.appendChild(group);
    });
    input.setAttribute("aria-expanded", String(options.length > 0));
    status.textContent = options.length ? "" : (query ? strings.searchNone.replace("%s", query) : "");
    status.hidden = !status.textContent;
    all.hidden = !data.more;
    all.href = form.action + "?q=" + encodeURIComponent(query);
    if (options.length) {
      move(0);
    }
  }

  function run() {
    var query = input.value.trim();
    if (pending) {
      pending.abort();
    }
    if (!query) {
      show({results: [], more: false}, "");
      return;
    }
    status.textContent = strings.searching;
    status.hidden = false;
    pending = new AbortController();
    fetch(form.dataset.endpoint + "?q=" + encodeURIComponent(query), {credentials: "same-origin", signal: pending.signal})
      .then(function (r) { return r.ok ? r.json() : {results: [], more: false}; })
      .then(function (data) {
        if (input.value.trim() === query) {
          show(data, query);
        }
      }, function () {});
  }

  function open(e, text) {
    if (e) {
      e.preventDefault();
    }
    if (!dialog) {
      build();
    }
    if (dialog.open) {
      return;
    }
    opener = document.activeElement && document.activeElement !== document.body ? document.activeElement : null;
    input.value = text !== undefined ? text : box.value;
    dialog.showModal();
    document.body.style.overflow = "hidden";
    input.focus();
    input.select();
    run();
  }

  form.addEventListener("submit", function (e) { open(e); });
  box.addEventListener("click", function (e) { open(e); });
  box.addEventListener("keydown", function (e) {
    if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      open(e, box.value + e.key);
    }
  });
  document.addEventListener("keydown", function (e) {
    var a = document.activeElement;
    var typing = a && (/^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName) || a.isContentEditable);
    if ((e.key === "k" || e.key === "K") && (e.ctrlKey || e.metaKey) && !e.altKey) {
      open(e);
    } else if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
      open(e);
    }
  });
})();
