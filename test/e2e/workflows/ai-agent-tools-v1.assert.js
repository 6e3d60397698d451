'use strict';
/**
 * The AI Agent example as saved with version 1 of the node (long actions: n8n words each tool's
 * description as "<action> in Geospatial Analysis"): the same assertions as the example, which
 * now uses version 2 (short actions; the same words reach the model through the tool
 * variant's Tool Description).
 */
module.exports = require('../../../examples/ai-agent-tools.assert.js');
