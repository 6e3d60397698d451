/**
 * Fake clock: fake time = anchor + scale * (real time elapsed since the anchor was set).
 * scale 0 freezes time; advance() jumps forward; set() jumps anywhere.
 */
export class FakeClock {
	private anchorFake: number;
	private anchorReal: number;
	private scale = 1;

	constructor(start: Date = new Date()) {
		this.anchorFake = start.getTime();
		this.anchorReal = Date.now();
	}

	nowMs(): number {
		return this.anchorFake + this.scale * (Date.now() - this.anchorReal);
	}

	now(): Date {
		return new Date(this.nowMs());
	}

	advance(ms: number): void {
		if (!Number.isFinite(ms)) throw new Error('advance(ms): ms must be a finite number');
		this.anchorFake += ms;
	}

	set(d: Date): void {
		if (Number.isNaN(d.getTime())) throw new Error('set(d): invalid date');
		this.anchorFake = d.getTime();
		this.anchorReal = Date.now();
	}

	setScale(factor: number): void {
		if (!Number.isFinite(factor) || factor < 0)
			throw new Error('setScale(factor): factor must be >= 0');
		this.anchorFake = this.nowMs();
		this.anchorReal = Date.now();
		this.scale = factor;
	}

	getScale(): number {
		return this.scale;
	}
}
