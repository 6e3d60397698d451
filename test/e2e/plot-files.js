'use strict';
/**
 * The suppliers' plot files of the flagship example (examples/shipment-files/), served on
 * loopback as a supplier's file store would serve them: `GET /files/<name>` answers the file
 * (GeoJSON as application/geo+json, KML, KMZ, zip by their types), anything else 404. The
 * shipments table of the example holds each file's URL (`plot_file`); the workflow downloads it
 * with an HTTP Request node. Started beside the fake service (fake.js, `fake.files`), so every
 * lane, the browser check and `npm run demo` have their own.
 */
const fs = require('fs');
const http = require('http');
const path = require('path');

const FILES_DIR = path.join(__dirname, '..', '..', 'examples', 'shipment-files');
const TYPES = {
	'.geojson': 'application/geo+json',
	'.json': 'application/json',
	'.kml': 'application/vnd.google-earth.kml+xml',
	'.kmz': 'application/vnd.google-earth.kmz',
	'.zip': 'application/zip',
};

/** Starts the file store on a free loopback port: `{ url, urlOf(name), requests, close() }`. */
async function startPlotFiles({ dir = FILES_DIR } = {}) {
	const requests = [];
	const names = new Set(fs.readdirSync(dir));
	const server = http.createServer((req, res) => {
		const m = /^\/files\/([^/?#]+)$/.exec(req.url || '');
		const name = m ? decodeURIComponent(m[1]) : '';
		requests.push({ method: req.method, path: req.url });
		if (req.method !== 'GET' || !names.has(name)) {
			res.writeHead(404, { 'content-type': 'text/plain' });
			res.end('not found');
			return;
		}
		const body = fs.readFileSync(path.join(dir, name));
		res.writeHead(200, {
			'content-type': TYPES[path.extname(name).toLowerCase()] || 'application/octet-stream',
			'content-length': body.length,
			'content-disposition': `attachment; filename="${name}"`,
		});
		res.end(body);
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const url = `http://127.0.0.1:${server.address().port}`;
	return {
		url,
		urlOf: (name) => `${url}/files/${encodeURIComponent(name)}`,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

module.exports = { startPlotFiles, FILES_DIR };
