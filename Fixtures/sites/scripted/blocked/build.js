// robots.txt disallows /blocked/: a crawler that obeys it never fetches this file.
document.title = "Gorsebloom disallowed script ran";
