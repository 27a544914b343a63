"""Scrapy's side of Benchmarks/crawl.sh: crawl one site the way a minimal Scrapy crawler would.

    scrapy runspider Benchmarks/crawl_scrapy_spider.py -a base=http://127.0.0.1:PORT \
        -s CONCURRENT_REQUESTS=16 -s CONCURRENT_REQUESTS_PER_DOMAIN=16 -s LOG_FILE=scrapy.log \
        -o items.jsonl:jsonl

Starts from `/` and from `/sitemap.xml` (the sitemap index named in robots.txt, as searchlight reads
it), follows every same-host link (LinkExtractor, which also drops #fragments) and every sitemap
<loc>, obeys robots.txt, with no delay and no AutoThrottle. For each HTML page it yields one small
item (url and <title>) to the feed: the least a crawler can do with a page. Scrapy's other
defaults are kept (cookies, redirects, retries, compression, the in-memory scheduler and
duplicate filter). Settings given with -s on the command line override the ones here.

With `-a extruct=1` (crawl.sh's SITE=extract) every HTML page also goes through extruct, the
structured-data extraction a Scrapy crawler would add:

    extruct.extract(response.body, base_url=response.url, encoding=response.encoding,
                    syntaxes=["json-ld", "microdata", "opengraph"], uniform=False, errors="log")

and the page's one item is its url, <title> and the number of items found per syntax (the results
themselves are not written to the feed: fewer costs for Scrapy, not more). errors="log" keeps a
failing syntax (broken JSON-LD) from losing the others, as in Benchmarks/extract_extruct.py; each
failure is one ERROR line in Scrapy's log. extruct must import in the Python that runs Scrapy.
"""
from urllib.parse import urlsplit

import scrapy
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.sitemap import Sitemap


EXTRUCT_SYNTAXES = ["json-ld", "microdata", "opengraph"]


class BenchSpider(scrapy.Spider):
    name = "bench"
    custom_settings = {
        "ROBOTSTXT_OBEY": True,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "HTTPCACHE_ENABLED": False,
        "CONCURRENT_REQUESTS": 16,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
        "CONCURRENT_REQUESTS_PER_IP": 0,
        "DEPTH_LIMIT": 0,
        # Consoles that listen on a port of their own, not part of crawling.
        "TELNETCONSOLE_ENABLED": False,
        "REMOTE_CONTROL_ENABLED": False,
        "LOG_LEVEL": "INFO",
        "USER_AGENT": "searchlight-bench-scrapy (+loopback benchmark)",
    }

    def __init__(self, base, links="css", extruct="0", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.extruct = None
        if extruct not in ("0", "", "false", "no"):
            import extruct as module  # only this mode needs it

            self.extruct = module
        if links not in ("extractor", "css"):
            raise ValueError(f"links must be 'extractor' or 'css', not {links!r}")
        self.follow = links
        self.base = base.rstrip("/")
        host = urlsplit(self.base).hostname
        self.allowed_domains = [host]
        # Every link of the site is on this host; OffsiteMiddleware enforces allowed_domains. (The
        # extractor's own allow_domains compares the host with its port and would drop them all.)
        self.links = LinkExtractor()

    def seeds(self):
        yield scrapy.Request(self.base + "/", callback=self.parse)
        yield scrapy.Request(self.base + "/sitemap.xml", callback=self.parse_sitemap)

    # Scrapy 2.13 and later call start(); earlier versions call start_requests().
    async def start(self):
        for request in self.seeds():
            yield request

    def start_requests(self):
        return self.seeds()

    def parse(self, response):
        if not isinstance(response, scrapy.http.HtmlResponse):
            return
        item = {"url": response.url, "title": response.css("title::text").get()}
        if self.extruct is not None:
            item.update(self.extract(response))
        yield item
        if self.follow == "css":
            # One link at a time: response.follow raises ValueError on mailto:, tel:, sms: and
            # javascript: hrefs, which would end the callback (follow_all) and drop the page's
            # remaining links. The generated site has none; the extraction pages have many.
            for href in response.css("a[href]::attr(href)").getall():
                try:
                    request = response.follow(href, callback=self.parse)
                except ValueError:
                    continue
                yield request
        else:
            for link in self.links.extract_links(response):
                yield scrapy.Request(link.url, callback=self.parse)

    def extract(self, response):
        try:
            data = self.extruct.extract(response.body, base_url=response.url, encoding=response.encoding,
                                        syntaxes=EXTRUCT_SYNTAXES, uniform=False, errors="log")
        except LookupError:  # a charset label lxml does not know: let it guess, as extract_extruct.py does
            data = self.extruct.extract(response.body, base_url=response.url,
                                        syntaxes=EXTRUCT_SYNTAXES, uniform=False, errors="log")
        return {syntax: len(data.get(syntax) or []) for syntax in EXTRUCT_SYNTAXES}

    def parse_sitemap(self, response):
        sitemap = Sitemap(response.body)
        for entry in sitemap:
            loc = entry.get("loc")
            if not loc:
                continue
            if sitemap.type == "sitemapindex":
                yield scrapy.Request(loc, callback=self.parse_sitemap)
            else:
                yield scrapy.Request(loc, callback=self.parse)
