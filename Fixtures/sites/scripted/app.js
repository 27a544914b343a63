// The same-site script file of file.html and file2.html: it builds each page from its data-page name.
(function () {
  const name = document.body.dataset.page;
  const label = name.charAt(0).toUpperCase() + name.slice(1);
  document.title = label + " field guide, built by a script file";
  const description = document.createElement("meta");
  description.name = "description";
  description.content = label + " field guide: where it grows, written by /app.js.";
  document.head.appendChild(description);
  const og = document.createElement("meta");
  og.setAttribute("property", "og:title");
  og.content = label + " field guide";
  document.head.appendChild(og);
  const data = document.createElement("script");
  data.type = "application/ld+json";
  data.textContent = JSON.stringify({ "@context": "https://schema.org", "@type": "Article", "headline": label });
  document.head.appendChild(data);
  document.getElementById("app").textContent = label + " grows on the rocks below the harbour wall.";
})();
