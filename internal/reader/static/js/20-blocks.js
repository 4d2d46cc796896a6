// Blocks: copy buttons on code, tabs, the outline following the reading
// position, the page copied as Markdown.
(function () {
  "use strict";
  var strings = document.body.dataset;

  function icon(paths) {
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("width", "16");
    svg.setAttribute("height", "16");
    svg.setAttribute("fill", "none");
    svg.setAttribute("stroke", "currentColor");
    svg.setAttribute("stroke-width", "2");
    svg.setAttribute("stroke-linecap", "round");
    svg.setAttribute("stroke-linejoin", "round");
    svg.setAttribute("aria-hidden", "true");
    paths.forEach(function (d) {
      var p = document.createElementNS(ns, "path");
      p.setAttribute("d", d);
      svg.appendChild(p);
    });
    return svg;
  }
  var copyIcon = ["M11 9h7a2 2 0 0 1 2 2v7a2 2 0 0 1-2 2h-7a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2z", "M5 15V5a2 2 0 0 1 2-2h8"];
  var doneIcon = ["m5 12 5 5 9-10"];

  function copied(button, label) {
    button.setAttribute("data-copied", "");
    button.replaceChildren(icon(doneIcon), document.createTextNode(strings.copied));
    setTimeout(function () {
      button.removeAttribute("data-copied");
      button.replaceChildren(icon(copyIcon), document.createTextNode(label));
    }, 1500);
  }

  function write(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // Plain http: the older way, through a selected text area.
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand("copy");
      area.remove();
      if (ok) {
        resolve();
      } else {
        reject(new Error("copy refused"));
      }
    });
  }

  // Code blocks: a copy button in the head; numbered lines copy without
  // their numbers.
  document.querySelectorAll(".code-block").forEach(function (block) {
    var head = block.querySelector(".code-head");
    var pre = block.querySelector("pre");
    if (!head || !pre) {
      return;
    }
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy";
    b.setAttribute("aria-label", strings.copyCode);
    b.append(icon(copyIcon), document.createTextNode(strings.copy));
    b.addEventListener("click", function () {
      var lines = pre.querySelectorAll(".cl");
      var text = lines.length ? Array.prototype.map.call(lines, function (l) { return l.textContent; }).join("") : pre.textContent;
      write(text.replace(/\n$/, "")).then(function () { copied(b, strings.copy); }, function () {});
    });
    head.appendChild(b);
  });

  // Tabs: the server writes WAI-ARIA tabs (automatic activation); a
  // click or arrows, Home and End select a tab and show its panel.
  document.querySelectorAll(".tabs [role=tablist]").forEach(function (list) {
    var tabs = Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));
    function select(i) {
      tabs.forEach(function (t, j) {
        t.setAttribute("aria-selected", String(i === j));
        t.tabIndex = i === j ? 0 : -1;
        var panel = document.getElementById(t.getAttribute("aria-controls"));
        if (panel) {
          panel.hidden = i !== j;
        }
      });
      tabs[i].focus();
    }
    list.addEventListener("click", function (e) {
      var i = tabs.indexOf(e.target.closest("[role=tab]"));
      if (i >= 0) {
        select(i);
      }
    });
    list.addEventListener("keydown", function (e) {
      var i = tabs.indexOf(document.activeElement);
      var next = {ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1}[e.key];
      if (i < 0 || next === undefined) {
        return;
      }
      e.preventDefault();
      select((next + tabs.length) % tabs.length);
    });
  });

  // Outline: the section being read is marked as the reader scrolls.
  var links = document.querySelectorAll("aside.toc a[href^='#']");
  if (links.length && "IntersectionObserver" in window) {
    var byID = {};
    var heads = [];
    links.forEach(function (a) {
      var h = document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
      if (h) {
        byID[h.id] = a;
        heads.push(h);
      }
    });
    var visible = {};
    var mark = function () {
      var top = null;
      for (var i = 0; i < heads.length; i++) {
        if (visible[heads[i].id]) {
          top = heads[i];
          break;
        }
      }
      if (!top) {
        return;
      }
      links.forEach(function (a) { a.removeAttribute("aria-current"); });
      byID[top.id].setAttribute("aria-current", "true");
    };
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { visible[e.target.id] = e.isIntersecting; });
      mark();
    }, {rootMargin: "-60px 0px -55% 0px"});
    heads.forEach(function (h) { io.observe(h); });
  }

  // Page actions: copy the page's Markdown (PAGE.md).
  var copyPage = document.querySelector(".copy-page");
  if (copyPage) {
    copyPage.hidden = false;
    copyPage.addEventListener("click", function () {
      fetch(copyPage.dataset.src, {credentials: "same-origin"}).then(function (r) {
        if (!r.ok) {
          throw new Error(r.status);
        }
        return r.text();
      }).then(write).then(function () { copied(copyPage, strings.copyPage); }, function () {});
    });
  }

})();
