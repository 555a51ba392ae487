// Memory vault: small progressive enhancements; every page works without this file.
// No inline script anywhere (the Content-Security-Policy forbids it): behaviour hangs on
// data- attributes.
"use strict";

document.addEventListener("DOMContentLoaded", function () {
  // Forms that destroy something ask first.
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) {
        event.preventDefault();
      }
    });
  });

  // A form is sent once: its buttons are disabled while the page waits for the answer.
  document.querySelectorAll("form[method=post]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (event.defaultPrevented) return;
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    });
  });

  // Copy a vault link to the clipboard.
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var target = document.getElementById(button.getAttribute("data-copy"));
      if (!target || !navigator.clipboard) return;
      navigator.clipboard.writeText(target.value || target.textContent).then(function () {
        button.textContent = "Copied";
      });
    });
  });

  // A memory opened for correction gets the cursor in its text.
  document.querySelectorAll("details.correct").forEach(function (details) {
    details.addEventListener("toggle", function () {
      var area = details.querySelector("textarea");
      if (details.open && area) area.focus();
    });
  });
});
