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
"""
from urllib.parse import urlsplit

import scrapy
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.sitemap import Sitemap


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

    def __init__(self, base, links="css", *args, **kwargs):
        super().__init__(*args, **kwargs)
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
        yield {"url": response.url, "title": response.css("title::text").get()}
        if self.follow == "css":
            yield from response.follow_all(css="a[href]", callback=self.parse)
        else:
            for link in self.links.extract_links(response):
                yield scrapy.Request(link.url, callback=self.parse)

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
